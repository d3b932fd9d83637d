#!/usr/bin/env bash
# Speed benchmark of one training step at n = 100 (TSP): the rollout trainer
# (batch 256: sampled decode, greedy baseline rollout, backward) against the
# multi-start trainer (batch 64 x 100 starts = 6,400 sampled trajectories), and
# the peak resident memory of each run. Epoch 0 warms up, epoch 1 is timed.
# Rewrites the part of results/speed.md between its "multistart_speed.sh: begin"
# and "multistart_speed.sh: end" markers. Run on an otherwise idle machine.
# usage: experiments/multistart_speed.sh [THREADS]   (from the repository root)
source "$(dirname "$0")/preamble.sh"

row() {  # label, trajectories per step, train flags...
  local label=$1 per_step=$2; shift 2
  /usr/bin/time -f "%M" -o "$work/peak" "$eie" train --n 100 --epochs 2 --steps 3 --val-size 2 \
    --threads "$threads" --out "$work/$label" "$@" >/dev/null 2>&1
  local step peak
  step=$(tail -n 1 "$work/$label/log.csv" | cut -d, -f8)
  peak=$(cat "$work/peak")
  awk -v l="$label" -v s="$step" -v k="$per_step" -v p="$peak" 'BEGIN {
    printf "| %s | %.2f | %d | %.0f | %.0f |\n", l, s, k, k / s, p / 1024 }'
}

grep -qF '<!-- multistart_speed.sh: begin -->' results/speed.md ||
  { echo "multistart_speed.sh: results/speed.md lacks its markers" >&2; exit 1; }
{
  echo "Command: \`experiments/multistart_speed.sh $threads\` ($(date -u +%Y-%m-%d), $threads threads)."
  echo
  echo "| trainer (TSP, n = 100) | seconds per step | trajectories per step | trajectories per second | peak memory (MiB) |"
  echo "|---|---|---|---|---|"
  row rollout 256 --batch 256 --baseline-eval-size 2
  row multistart 6400 --batch 64 --baseline multistart --starts 100
  row multistart+aug8 6400 --batch 8 --baseline multistart --starts 100 --augment 8
} > "$work/block"
experiments/replace_block.sh results/speed.md multistart_speed.sh "$work/block"
sed -n '/multistart_speed.sh: begin/,/multistart_speed.sh: end/p' results/speed.md
