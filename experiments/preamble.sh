# Sourced by the benchmark scripts: strict mode, the repository root as the working
# directory, the built binary as $eie ($EIE when set: a copy that rebuilds leave
# alone), THREADS (the script's first argument, default 2) as $threads, and a
# scratch directory $work removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
eie=${EIE:-$PWD/build/src/cli/eie}
threads=${1:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
