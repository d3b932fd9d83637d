# Sourced by the benchmark scripts: strict mode, the repository root as the working
# directory, the built binary as $eie ($EIE when set: a copy that rebuilds leave
# alone), THREADS (the script's first argument, default 2) as $threads, a scratch
# directory $work removed on exit, and json_field NAME (a number of `eie ... --json`'s
# output on stdin, or of the reference's).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
eie=${EIE:-$PWD/build/src/cli/eie}
threads=${1:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json_field() { sed -E "s/.*\"$1\": ?([0-9.eE+-]+).*/\1/"; }
