#!/usr/bin/env bash
# Benchmark: seconds per rollout training step (TSP, n = 100, batch 256) of this build
# against another build, alternating the two so that both see the same machine.
# Prints, per run, the seconds per step of epoch 1 (the first with the greedy
# rollout baseline; epoch 0 warms up with the moving average) from each log.csv.
# Run it on an otherwise idle machine (pause other jobs with kill -STOP, -CONT after).
# usage: experiments/rollout_step_against.sh OTHER_EIE [REPEATS [LAYOUTS...]]
#   OTHER_EIE  the other build's binary, e.g. the main of 2026-11-25:
#                git worktree add /tmp/old-main d817016
#                cmake -S /tmp/old-main -B /tmp/old-main/build -G Ninja -DCMAKE_BUILD_TYPE=Release
#                ninja -C /tmp/old-main/build eie
#   LAYOUTS    "threads:processes" pairs for this build (default: 2:1 1:2); the other
#              build runs as one process of 2 threads (builds before 2026-11-26 have no --nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
other=$1
repeats=${2:-2}
shift $(($# < 2 ? $# : 2))
layouts=("$@")
[ ${#layouts[@]} -eq 0 ] && layouts=(2:1 1:2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp build/src/cli/eie "$work/this"

step_seconds() {  # BINARY OUT [extra flags]: seconds per step of epoch 1
  local binary=$1 out=$2
  shift 2
  "$binary" train --n 100 --epochs 2 --steps 4 --batch 256 --val-size 2 --baseline-eval-size 2 \
    --seed 5 --out "$out" "$@" > /dev/null
  awk -F, '$1 == 1 { print $8 }' "$out/log.csv"
}

for ((r = 1; r <= repeats; ++r)); do
  echo "other build, 1 process x 2 threads: $(step_seconds "$other" "$work/other$r" --threads 2) s"
  for layout in "${layouts[@]}"; do
    threads=${layout%%:*} processes=${layout#*:}
    echo "this build, $processes process(es) x $threads thread(s): $(step_seconds "$work/this" \
      "$work/this$r-$layout" --threads "$threads" --nproc "$processes") s"
  done
done
