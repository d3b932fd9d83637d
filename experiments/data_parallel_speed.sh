#!/usr/bin/env bash
# Data-parallel training speed at n = 100 (TSP, rollout baseline, global batch 256):
# one process with 2 threads against a job of 2 ranks with 1 thread each
# (`eie train --nproc 2`), and the share of a step the gradient all-reduce takes
# (build/experiments/allreduce_time: two ranks over loopback). Epoch 0 warms up,
# epoch 1 is timed. Rewrites the part of results/speed.md between its
# "data_parallel_speed.sh: begin" and "data_parallel_speed.sh: end" markers. Run on an
# otherwise idle machine.
# usage: experiments/data_parallel_speed.sh   (from the repository root)
source "$(dirname "$0")/preamble.sh"

step_seconds() {  # train flags... -> seconds per step of epoch 1
  "$eie" train --n 100 --epochs 2 --steps 3 --batch 256 --val-size 2 --baseline-eval-size 2 \
    --out "$work/run" "$@" >/dev/null 2>&1
  tail -n 1 "$work/run/log.csv" | cut -d, -f8
  rm -rf "$work/run"
}

grep -qF '<!-- data_parallel_speed.sh: begin -->' results/speed.md ||
  { echo "data_parallel_speed.sh: results/speed.md lacks its markers" >&2; exit 1; }
one=$(step_seconds --threads 2)
two=$(step_seconds --threads 1 --nproc 2)
read -r parameters allreduce_ms < <(build/experiments/allreduce_time 50)
{
  echo "Command: \`experiments/data_parallel_speed.sh\` ($(date -u +%Y-%m-%d))."
  echo
  echo "| job (TSP, n = 100, batch 256, rollout baseline) | seconds per step | instances per second | gradient all-reduce (ms) | its share of a step |"
  echo "|---|---|---|---|---|"
  awk -v s="$one" 'BEGIN { printf "| 1 process x 2 threads | %.2f | %.0f | - | - |\n", s, 256 / s }'
  awk -v s="$two" -v a="$allreduce_ms" 'BEGIN {
    printf "| 2 processes x 1 thread (`--nproc 2`) | %.2f | %.0f | %.1f | %.2f%% |\n", s, 256 / s, a, 100 * a / 1000 / s }'
  echo
  echo "The model has $parameters parameters ($((parameters * 4 / 1024)) KiB of float32 gradients per all-reduce)."
} > "$work/block"
experiments/replace_block.sh results/speed.md data_parallel_speed.sh "$work/block"
sed -n '/data_parallel_speed.sh: begin/,/data_parallel_speed.sh: end/p' results/speed.md
