#!/usr/bin/env bash
# Issue #6, item 3: cosine attention (CosScale s = 10) against dot-product attention
# under the same budget: two TSP20 policies trained side by side from scratch, 10
# minutes on one thread each (experiments/tsp20_learns.sh), then both extrapolated
# 16x (n = 20..320) with the same scale policies. Writes results/tsp20-{dot,cosine}/
# and results/tables/tsp20_extrapolation_{dot,cosine}.{md,csv}.
# usage: experiments/tsp20_cosine.sh   (from the repository root, after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
experiments/tsp20_learns.sh results/tsp20-dot 1 &
dot=$!
experiments/tsp20_learns.sh results/tsp20-cosine 1 --cosine 10
wait "$dot"
for v in dot cosine; do
  build/src/cli/eie bench "experiments/tsp20_extrapolation_$v.toml" --threads 2
done
