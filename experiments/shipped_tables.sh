#!/usr/bin/env bash
# Every benchmark of experiments/ that names MODEL (e.g. results/models/tsp100.h5), made
# again one after another, each with its wall time: what a newly shipped model needs
# before the pages that quote its tables are rewritten. A calibration table such a
# benchmark names (--scale calibrated:FILE, --bias entropy:FILE) is stamped with the model
# it was measured on and refused for any other, so those are removed first and measured
# again.
# usage: experiments/shipped_tables.sh MODEL [THREADS]   (nothing else running: the
# tables report seconds)
model=${1:?usage: experiments/shipped_tables.sh MODEL [THREADS]}
source "$(dirname "$0")/preamble.sh" "${2:-2}"
mapfile -t tables < <(grep -l "\"$model\"" experiments/*.toml)
[ "${#tables[@]}" -gt 0 ] || { echo "no benchmark in experiments/ names $model" >&2; exit 1; }
for toml in "${tables[@]}"; do
  # A benchmark without such a table is no failure (grep -o exits 1 on no match).
  { grep -v '^ *#' "$toml" | grep -oE '(calibrated|entropy):[^"]*' || true; } | cut -d: -f2- |
    xargs -r rm -f
done
for toml in "${tables[@]}"; do
  start=$(date +%s)
  "$eie" bench "$toml" --threads "$threads" >"$work/bench.log" 2>&1 ||
    { cat "$work/bench.log" >&2; exit 1; }
  echo "$(basename "$toml" .toml): $(($(date +%s) - start)) s"
done
