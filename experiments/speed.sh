#!/usr/bin/env bash
# Speed benchmark (TSP): greedy inference at n = 100 (batch 64) and n = 1600
# (batch 8, with peak memory), and steady-state training steps at n = 100, batch 256,
# each with OpenMP's default wait policy and with OMP_WAIT_POLICY=PASSIVE.
# Run on an otherwise idle machine. Writes results/speed.md.
# usage: experiments/speed.sh [THREADS]   (from the repository root, after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
eie=$PWD/build/src/cli/eie
threads=${1:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$eie" gen --n 100 --count 1024 --seed 1 --out "$work/n100.h5" >/dev/null
"$eie" gen --n 1600 --count 16 --seed 2 --out "$work/n1600.h5" >/dev/null

json_field() { sed -E "s/.*\"$1\":([0-9.eE+-]+).*/\1/"; }

row() {  # label, then environment assignments
  local label=$1; shift
  # Training: epoch 0 warms the allocator up (exponential baseline), epoch 1 is
  # timed with the rollout baseline: baseline greedy forward + sampled forward +
  # backward + Adam.
  env "$@" "$eie" train --n 100 --batch 256 --epochs 2 --steps 4 --val-size 2 \
    --baseline-eval-size 2 --threads "$threads" --out "$work/train" >/dev/null 2>&1
  local step
  step=$(tail -n 1 "$work/train/log.csv" | cut -d, -f8)
  local model=$work/train/model.h5
  local s100 s1600 peak
  s100=$(env "$@" "$eie" solve --dataset "$work/n100.h5" --model "$model" --batch 64 \
    --threads "$threads" --json | json_field seconds_per_instance)
  s1600=$(env "$@" /usr/bin/time -f "%M" -o "$work/peak" "$eie" solve --dataset "$work/n1600.h5" \
    --model "$model" --batch 8 --threads "$threads" --json | json_field seconds_per_instance)
  peak=$(cat "$work/peak")
  awk -v l="$label" -v a="$s100" -v b="$s1600" -v p="$peak" -v s="$step" 'BEGIN {
    printf "| %s | %.0f | %.2f | %.0f | %.2f |\n", l, 1 / a, 1 / b, p / 1024, s }'
}

{
  echo "# Speed (TSP, $threads threads, $(nproc) cores)"
  echo
  echo "Command: \`experiments/speed.sh $threads\` on an idle machine ($(date -u +%Y-%m-%d))."
  echo
  echo "| OpenMP wait policy | greedy n=100, batch 64 (instances/s) | greedy n=1600, batch 8 (instances/s) | peak memory n=1600 (MiB) | training step n=100, batch 256 (s) |"
  echo "|---|---|---|---|---|"
  row "default (binary's choice)"
  row "PASSIVE" OMP_WAIT_POLICY=PASSIVE
  echo
  echo "Python/PyTorch reference (Kool et al.) on this kind of machine, 2 threads: greedy"
  echo "115-141 instances/s at n = 100, 0.68 instances/s at n = 1600, about 7 s per training step."
} | tee results/speed.md
