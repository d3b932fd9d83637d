#!/usr/bin/env bash
# The calibration tables shipped with the shipped models (results/models/calibrations):
# --bias entropy (tsp, cvrp) and --scale calibrated (every problem) at their default
# settings, measured at the grid sizes N * 2^(k/2) up to MOST (default 2263), smallest
# first, one solve of a one-instance dataset per size (what a grid size costs the
# first time is the time printed per line). Rows already there are kept, not measured.
# TSP instances above 2,000 cities decode in tiles of 100, so at 2263 the TSP tables
# gain the tiles' sizes (grid sizes 3 to 71) instead.
# Shipped as measured on 2026-11-29 with THREADS 1 (OMP_NUM_THREADS=1), MOST 2263, niced
# beside other work: per table 24-64 s at n = 400, 70-102 s at 800, 116-136 s at 1131,
# 148-264 s at 1600, 276-369 s at 2263 (35-106 s for the TSP tiles); about 75 min in all.
# A newly shipped model needs its two tables measured (the others' rows are kept), after
# removing the old model's (a table's file name carries its model's fingerprint): alone
# with THREADS 2, 314 s for TSP's and 509 s for CVRP's (2026-11-30); two to three times
# that on a machine of half the speed (1,208 s for CVRP's) or beside a training run.
# usage: experiments/ship_calibrations.sh [THREADS [MOST]]   (from the repository root)
source "$(dirname "$0")/preamble.sh"
most=${2:-2263}
out=results/models/calibrations
mkdir -p "$out"
for n in 100 141 200 283 400 566 800 1131 1600 2263; do
  [ "$n" -gt "$most" ] && break
  for job in "tsp --bias entropy" "cvrp --bias entropy" "tsp --scale calibrated" \
    "cvrp --scale calibrated" "bpp3d --scale calibrated"; do
    read -r problem flags <<<"$job"
    "$eie" gen --problem "$problem" --n "$n" --count 1 --seed 5 --out "$work/$problem-$n.h5" >/dev/null
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$eie" solve --dataset "$work/$problem-$n.h5" $flags --calibration-cache "$out" \
      --threads "$threads" >/dev/null
    printf '%s n = %s %s: %.0f s\n' "$problem" "$n" "$flags" "$(echo "$(date +%s.%N) - $start" | bc)"
  done
done
