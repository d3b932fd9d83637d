#!/usr/bin/env bash
# Benchmark: a TSP20 policy trained from scratch for 10 minutes of wall-clock time
# (2 threads) and its greedy mean on 1,000 held-out instances (target <= 3.95;
# optimum ~3.83). Writes results/tsp20-learns/{log.csv,curve.png,result.json}.
# usage: experiments/tsp20_learns.sh   (from the repository root, after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
eie=build/src/cli/eie
out=results/tsp20-learns
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT

timeout 600 "$eie" train --problem tsp --n 20 --epochs 1000 --steps 20 --batch 256 --lr 1e-3 \
  --lr-decay 0.95 --val-size 500 --baseline-eval-size 1000 --seed 20 --threads 2 --out "$run" \
  || [ $? -eq 124 ]  # the time limit ends the run; the last finished epoch is kept
"$eie" gen --problem tsp --n 20 --count 1000 --seed 4242 --out "$run/held-out.h5" >/dev/null
"$eie" solve --dataset "$run/held-out.h5" --model "$run/model.h5" --threads 2 --json | tee "$out/result.json"
cp "$run/log.csv" "$out/log.csv"
experiments/plot_training.sh "$out/log.csv" "$out/curve.png" "TSP20 from scratch, 10 minutes on 2 cores"
