#!/usr/bin/env bash
# Benchmark: a TSP20 policy trained from scratch for 10 minutes of wall-clock time
# and its greedy mean on 1,000 held-out instances (target <= 3.95 with 2 threads;
# optimum ~3.83). Writes OUT/{model.h5,log.csv,curve.png,result.json}.
# usage: experiments/tsp20_learns.sh [OUT [THREADS [extra eie-train flags...]]]
#   (from the repository root, after scripts/setup.sh; defaults: results/tsp20-learns, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
eie=build/src/cli/eie
out=${1:-results/tsp20-learns}
threads=${2:-2}
shift $(($# < 2 ? $# : 2))
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir -p "$out"

# The budget (training plus the last epoch's evaluation stays under 10 minutes) ends
# the run; the learning rate falls linearly to 0 over it, whatever the machine's speed.
"$eie" train --problem tsp --n 20 --epochs 100000 --steps 20 --batch 256 --lr 1e-3 \
  --time-budget 585 --val-size 500 --baseline-eval-size 1000 --seed 20 --threads "$threads" \
  --out "$run" "$@"
"$eie" gen --problem tsp --n 20 --count 1000 --seed 4242 --out "$run/held-out.h5" >/dev/null
"$eie" solve --dataset "$run/held-out.h5" --model "$run/model.h5" --threads "$threads" --json | tee "$out/result.json"
cp "$run/log.csv" "$run/model.h5" "$run/curve.png" "$out/"  # train redraws curve.png every epoch
