#!/usr/bin/env bash
# How far a model falls behind Kool et al.'s weights when the cities are laid out
# otherwise than in uniform squares: greedy mean tour length of MODEL (default the shipped
# tsp100.h5, trained on uniform squares) and of Kool et al.'s TSP100 weights (imported
# from ../shared) on the same instances, per distribution (eie gen --distribution) and
# size, and the ratio; then the greedy gap to the optimum on the bundled TSPLIB files.
# Prints markdown tables.
# usage: [MODEL=M.h5] experiments/distribution_gaps.sh [THREADS [SIZES [DISTRIBUTIONS]]]
source "$(dirname "$0")/preamble.sh"
sizes=${2:-100 200 500 1000}
distributions=${3:-uniform clustered mixed elongated varied}
model=${MODEL:-results/models/tsp100.h5}
kool=${KOOL:-../shared/reference/kool-am/tsp100.h5}
"$eie" import --from "$kool" --out "$work/kool.h5" >/dev/null
mean() {
  "$eie" solve --dataset "$1" --model "$2" --threads "$threads" --json | json_field mean_cost
}
echo "| n | distribution | instances | $model | Kool et al. | ratio |"
echo "|---|---|---|---|---|---|"
for n in $sizes; do
  count=$((n <= 100 ? 1000 : n <= 200 ? 256 : n <= 500 ? 64 : 32))
  for distribution in $distributions; do
    "$eie" gen --n "$n" --count "$count" --seed 4242 --distribution "$distribution" \
      --out "$work/d.h5" >/dev/null
    ours=$(mean "$work/d.h5" "$model")
    theirs=$(mean "$work/d.h5" "$work/kool.h5")
    printf '| %s | %s | %s | %.4f | %.4f | %.4f |\n' "$n" "$distribution" "$count" "$ours" \
      "$theirs" "$(echo "$ours / $theirs" | bc -l)"
  done
done
gap() {
  printf '%.2f%%' "$("$eie" solve "$1" --optimum "$2" --decode greedy --model "$3" \
    --threads "$threads" --json | json_field gap)"
}
echo
echo "| instance | $model | Kool et al. |"
echo "|---|---|---|"
while read -r file optimum; do
  printf '| %s | %s | %s |\n' "$(basename "$file" .tsp)" "$(gap "$file" "$optimum" "$model")" \
    "$(gap "$file" "$optimum" "$work/kool.h5")"
done <<TABLE
data/instances/kroA100.tsp 21282
${SHARED:-../shared}/instances/ch150.tsp 6528
TABLE
