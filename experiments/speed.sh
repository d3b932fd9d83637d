#!/usr/bin/env bash
# Speed benchmark. TSP: greedy inference at n = 100 (batch 64) and n = 1600
# (batch 8, with peak memory), and steady-state training steps at n = 100,
# batch 256, each with OpenMP's default wait policy, with OMP_WAIT_POLICY=PASSIVE, and on
# OpenBLAS's oldest x86-64 kernels (OPENBLAS_CORETYPE=Prescott: what OpenBLAS 0.3.21 itself
# takes on CPU models it does not know), beside the plain PyTorch reference's greedy
# n = 100 on the kernels eie runs on in that row. CVRP: greedy inference at n = 100 and 1600 with Kool
# et al.'s reference model (speed does not depend on the weights). 3D packing:
# environment steps per second on one core, and greedy attend2pack on 16
# instances of 1600 boxes. Run on an otherwise idle machine. Rewrites the part of
# results/speed.md between its "speed.sh: begin" and "speed.sh: end" markers; the
# notes around them are kept.
# usage: experiments/speed.sh [THREADS]   (from the repository root, after scripts/setup.sh)
source "$(dirname "$0")/preamble.sh"

"$eie" gen --n 100 --count 1024 --seed 1 --out "$work/n100.h5" >/dev/null
"$eie" gen --n 1600 --count 16 --seed 2 --out "$work/n1600.h5" >/dev/null

# The OpenBLAS kernels eie runs on with environment assignments "$@", as `eie --version`
# names them (empty where its BLAS is not OpenBLAS).
blas_core() { env "$@" "$eie" --version | sed -nE 's/.*OpenBLAS, ([A-Za-z0-9]+) kernels.*/\1/p'; }

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
  local s100 s1600 peak core ref
  core=$(blas_core "$@")
  ref=$(env "$@" ${core:+OPENBLAS_CORETYPE=$core} /usr/bin/python3 ../shared/bench/ref_am.py \
    --threads "$threads" infer --n 100 --batch 64 --reps 3 | json_field instances_per_s)
  s100=$(env "$@" "$eie" solve --dataset "$work/n100.h5" --model "$model" --batch 64 \
    --threads "$threads" --json | json_field seconds_per_instance)
  s1600=$(env "$@" /usr/bin/time -f "%M" -o "$work/peak" "$eie" solve --dataset "$work/n1600.h5" \
    --model "$model" --batch 8 --threads "$threads" --json | json_field seconds_per_instance)
  peak=$(cat "$work/peak")
  awk -v l="$label" -v a="$s100" -v r="$ref" -v k="${core:-not OpenBLAS}" -v b="$s1600" \
    -v p="$peak" -v s="$step" 'BEGIN {
    printf "| %s | %s | %.0f | %.0f | %.2f | %.0f | %.2f |\n", l, k, 1 / a, r, 1 / b, p / 1024, s }'
}

cvrp_row() {
  "$eie" import --from ../shared/reference/kool-am/cvrp100.h5 --out "$work/cvrp.h5" >/dev/null
  "$eie" gen --problem cvrp --n 100 --count 1024 --seed 1 --out "$work/c100.h5" >/dev/null
  "$eie" gen --problem cvrp --n 1600 --count 16 --seed 2 --out "$work/c1600.h5" >/dev/null
  local s100 s1600
  s100=$("$eie" solve --dataset "$work/c100.h5" --model "$work/cvrp.h5" --batch 64 \
    --threads "$threads" --json | json_field seconds_per_instance)
  s1600=$("$eie" solve --dataset "$work/c1600.h5" --model "$work/cvrp.h5" --batch 8 \
    --threads "$threads" --json | json_field seconds_per_instance)
  awk -v a="$s100" -v b="$s1600" 'BEGIN {
    printf "| greedy, seconds per instance | %.4f | %.3f |\n", a, b
    printf "| reference (Python, 2 threads) | 0.009 | 1.38 |\n"
    printf "| speed-up | %.1fx | %.1fx |\n", 0.009 / a, 1.38 / b }'
}

packing_rows() {
  "$eie" gen --problem bpp3d --n 1600 --count 16 --seed 2 --out "$work/b1600.h5" >/dev/null
  # Speed does not depend on the weights: a freshly initialised network will do.
  "$eie" train --problem bpp3d --n 20 --epochs 1 --steps 1 --batch 4 --val-size 2 \
    --baseline-eval-size 2 --threads "$threads" --out "$work/bpp" >/dev/null 2>&1
  local model=$work/bpp/model.h5 start end
  start=$(date +%s.%N)
  "$eie" solve --dataset "$work/b1600.h5" --model "$model" --batch 16 --threads "$threads" \
    --json >/dev/null
  end=$(date +%s.%N)
  echo "| greedy attend2pack, 16 instances of n = 1600, batch 16 ($threads threads) | $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s (target < 120 s) |"
  echo "| environment steps per second, one core (\`build/experiments/bpp3d_step_speed\`) | $(build/experiments/bpp3d_step_speed 50000 | sed -E 's/.*: ([0-9]+) steps.*/\1/') (target >= 10,000) |"
}

# Fail early, before measuring, when the page lacks its markers.
grep -qF '<!-- speed.sh: begin -->' results/speed.md && grep -qF '<!-- speed.sh: end -->' results/speed.md ||
  { echo "speed.sh: results/speed.md lacks its speed.sh markers" >&2; exit 1; }
{
  echo "Command: \`experiments/speed.sh $threads\` on an idle machine ($(date -u +%Y-%m-%d), $threads threads, $(nproc) cores)."
  echo
  echo "## TSP"
  echo
  echo "| environment | BLAS kernels | greedy n=100, batch 64 (instances/s) | the reference, same kernels | greedy n=1600, batch 8 (instances/s) | peak memory n=1600 (MiB) | training step n=100, batch 256 (s) |"
  echo "|---|---|---|---|---|---|---|"
  row "default (binary's choice)"
  row "OMP_WAIT_POLICY=PASSIVE" OMP_WAIT_POLICY=PASSIVE
  row "OPENBLAS_CORETYPE=Prescott" OPENBLAS_CORETYPE=Prescott
  echo
  echo "The reference is the plain PyTorch TSP model (../shared/bench/ref_am.py), $threads threads;"
  echo "earlier measurements of it: 0.68 instances/s at n = 1600, about 7 s per training step."
  echo
  echo "## CVRP (Kool protocol, reference weights)"
  echo
  echo "| | n=100, batch 64 | n=1600, batch 8 |"
  echo "|---|---|---|"
  cvrp_row
  echo
  echo "## 3D packing (120 x 100 base, sides U{10..50})"
  echo
  echo "| measure | value |"
  echo "|---|---|"
  packing_rows
} | tee "$work/measured.md"
experiments/replace_block.sh results/speed.md speed.sh "$work/measured.md"
