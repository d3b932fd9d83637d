#!/usr/bin/env bash
# GPU speed of eie against the plain PyTorch reference (../shared/bench/ref_am.py) on
# the same machine, each side at the batches given: greedy TSP100 and TSP1600
# (instances per second, and eie's mean cost on the CPU and in each GPU precision), the
# rollout and the multi-start training steps (seconds per step, instances per second,
# peak GPU memory read from nvidia-smi), eie without CUDA graphs or without its own
# kernels beside, CVRP100 and packing on the GPU against the CPU's threads, and the CPU
# ratio on 2 threads. Prints Markdown tables (the ratios are eie / reference: above 1,
# eie is faster).
# Needs a CUDA build (scripts/setup-cuda.sh: build-cuda/) and python3 with a CUDA PyTorch.
# usage: experiments/gpu_speed.sh [REF_AM_PY]   (PRECISION=float32|tf32, default tf32:
#        the reference allows TF32; SECTIONS="greedy train other cpu" or a part of it;
#        ROLLOUT_BATCHES, default "512 2048 8192"; MULTISTART_BATCHES, default "64 128 256 1024")
set -uo pipefail
cd "$(dirname "$0")/.."
ref=${1:-../shared/bench/ref_am.py}
build=${BUILD:-build-cuda}
eie=$PWD/$build/src/cli/eie
speed=$PWD/$build/experiments/decode_speed
precision=${PRECISION:-tf32}
cpu_threads=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"; kill $(jobs -p) 2>/dev/null' EXIT
export PYTHONUNBUFFERED=1

# Peak GPU memory (MiB, the whole device as nvidia-smi reads it) while "$@" runs.
peak_mib() {
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 50 >"$work/smi" 2>/dev/null &
  local smi=$!
  "$@"
  local status=$?
  kill $smi 2>/dev/null; wait $smi 2>/dev/null
  sort -n "$work/smi" | tail -1 >"$work/peak"
  return $status
}
# Field $1 of the last JSON line on stdin, printed with format $2 (default %.0f).
json() { python3 -c "import json,sys; print('${2:-%.0f}' % json.loads(sys.stdin.read().strip().splitlines()[-1])['$1'])"; }
ref_run() { timeout 300 python3 "$ref" --device "$@" 2>"$work/ref.err" | tail -1; }
# Seconds per step of the last epoch of an `eie train` run (epoch 0 warms up).
eie_step() {
  rm -rf "$work/run"
  timeout 300 "$eie" train --device cuda --precision "$precision" --n 100 --epochs 2 --steps 3 \
    --val-size 16 --threads "$cpu_threads" --out "$work/run" "$@" >/dev/null 2>"$work/eie.err" || {
    tail -2 "$work/eie.err" >&2; echo nan; return; }
  tail -n 1 "$work/run/log.csv" | cut -d, -f8
}
# eie's greedy mean cost on the dataset $work/d.h5 (solve's flags in "$@").
mean() { timeout 300 "$eie" solve --dataset "$work/d.h5" --json "$@" | json mean_cost %.6f 2>/dev/null || echo nan; }
ratio() { python3 -c "a,b=$1,$2; print('%.2f' % (a / b) if a == a and b == b and b > 0 else 'n/a')" 2>/dev/null || echo n/a; }

echo "Machine: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(nproc) cores;"\
     "$(python3 -c 'import torch; print("PyTorch", torch.__version__)'); precision $precision; $(date -u +%Y-%m-%d)."
sections=${SECTIONS:-greedy train other cpu}
on() { [[ " $sections " == *" $1 "* ]]; }
if on greedy; then
echo
echo "| greedy TSP (instances/s) | batch | reference | eie | eie / reference | eie step by step (EIE_CUDA_GRAPHS=0) | eie in LibTorch's ops (EIE_CUDA_KERNELS=0) |"
echo "|---|---|---|---|---|---|---|"
for case in "100 1024" "100 4096" "100 16384" "1600 16" "1600 64"; do
  set -- $case
  r=$(ref_run cuda infer --n "$1" --batch "$2" --reps 3 | json instances_per_s 2>/dev/null || echo nan)
  e=$("$speed" tsp results/models/tsp100.h5 "$1" "$2" cuda 3 greedy "$precision" 2>"$work/e.err" | json instances_per_s 2>/dev/null || echo nan)
  s=$(EIE_CUDA_GRAPHS=0 "$speed" tsp results/models/tsp100.h5 "$1" "$2" cuda 3 greedy "$precision" 2>>"$work/e.err" | json instances_per_s 2>/dev/null || echo nan)
  o=$(EIE_CUDA_KERNELS=0 "$speed" tsp results/models/tsp100.h5 "$1" "$2" cuda 3 greedy "$precision" 2>>"$work/e.err" | json instances_per_s 2>/dev/null || echo nan)
  echo "| n = $1 | $2 | $r | $e | $(ratio "$e" "$r") | $s | $o |"
  grep -m1 "note:" "$work/e.err" >&2
done
echo
echo "| greedy TSP, mean cost (eie gen --seed 4242) | instances | CPU | GPU, float32 | GPU, tf32 | tf32 / float32 - 1 |"
echo "|---|---|---|---|---|---|"
for case in "100 1000" "1600 64"; do
  set -- $case
  "$eie" gen --n "$1" --count "$2" --seed 4242 --out "$work/d.h5" >/dev/null
  c=$(mean --threads "$cpu_threads"); f=$(mean --device cuda); t=$(mean --device cuda --precision tf32)
  echo "| n = $1 | $2 | $c | $f | $t | $(python3 -c "print('%+.2e' % ($t / $f - 1))" 2>/dev/null || echo n/a) |"
done
fi
if on train; then
echo
echo "| training step, TSP100 | batch | reference s/step | eie s/step | reference inst/s | eie inst/s | eie / reference | peak MiB reference | peak MiB eie | eie s/step in LibTorch's ops (EIE_CUDA_KERNELS=0) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for batch in ${ROLLOUT_BATCHES:-512 2048 8192}; do
  r=$(peak_mib ref_run cuda rollout-step --n 100 --batch $batch --steps 3 | json seconds_per_step %.3f 2>/dev/null || echo nan); rp=$(cat "$work/peak")
  e=$(peak_mib eie_step --batch $batch --baseline-eval-size 16); ep=$(cat "$work/peak")
  o=$(EIE_CUDA_KERNELS=0 eie_step --batch $batch --baseline-eval-size 16)
  echo "| rollout | $batch | $r | $e | $(ratio $batch "$r") | $(ratio $batch "$e") | $(ratio "$r" "$e") | $rp | $ep | $o |"
done
ref_fits=1  # the reference keeps every step's graph: past the batch it first fails at, it is not run
for batch in ${MULTISTART_BATCHES:-64 128 256 1024}; do
  r=nan; rp="not run"
  if [ $ref_fits = 1 ]; then
    r=$(peak_mib ref_run cuda multistart-step --n 100 --batch $batch --starts 100 --steps 3 | json seconds_per_step %.3f 2>/dev/null || echo nan); rp=$(cat "$work/peak")
    [ "$r" = nan ] && ref_fits=0
  fi
  e=$(peak_mib eie_step --batch $batch --baseline multistart --starts 100); ep=$(cat "$work/peak")
  echo "| multi-start (100 starts) | $batch | $r | $e | $(ratio $batch "$r") | $(ratio $batch "$e") | $(ratio "$r" "$e") | $rp | $ep | |"
done
fi
if on other; then
echo
echo "| greedy, eie (instances/s) | n | batch | GPU | CPU, $cpu_threads threads | GPU / CPU |"
echo "|---|---|---|---|---|---|"
for problem in cvrp bpp3d; do
  batch=1024; [ $problem = bpp3d ] && batch=256
  g=$("$speed" $problem results/models/$problem'100.h5' 100 $batch cuda 2 greedy "$precision" | json instances_per_s 2>/dev/null || echo nan)
  c=$("$speed" $problem results/models/$problem'100.h5' 100 $batch cpu 1 greedy float32 "$cpu_threads" | json instances_per_s 2>/dev/null || echo nan)
  echo "| $problem | 100 | $batch | $g | $c | $(ratio "$g" "$c") |"
done
fi
if on cpu; then
echo
echo "| CPU, 2 threads (instances/s) | batch | reference | eie | eie / reference |"
echo "|---|---|---|---|---|"
r=$(python3 "$ref" --device cpu --threads 2 infer --n 100 --batch 256 --reps 3 2>/dev/null | json instances_per_s 2>/dev/null || echo nan)
e=$("$speed" tsp results/models/tsp100.h5 100 256 cpu 3 greedy float32 2 | json instances_per_s 2>/dev/null || echo nan)
echo "| greedy TSP100 | 256 | $r | $e | $(ratio "$e" "$r") |"
fi
