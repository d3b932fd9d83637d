#!/usr/bin/env bash
# How far a model falls behind Kool et al.'s weights when the nodes are laid out
# otherwise than in uniform squares: greedy mean length of MODEL (default the shipped
# PROBLEM100.h5) and of Kool et al.'s weights for PROBLEM (tsp, the default, or cvrp;
# imported from ../shared) on the same instances, per distribution (eie gen
# --distribution) and size, and the ratio; then the greedy gap to the optimum (or best
# known) on the public files: TSPLIB's kroA100 and ch150, CVRPLIB's X-n101-k25.
# Prints markdown tables.
# usage: [PROBLEM=tsp|cvrp] [MODEL=M.h5] experiments/distribution_gaps.sh [THREADS [SIZES
#   [DISTRIBUTIONS]]]
source "$(dirname "$0")/preamble.sh"
sizes=${2:-100 200 500 1000}
distributions=${3:-uniform clustered mixed elongated varied}
problem=${PROBLEM:-tsp}
model=${MODEL:-results/models/${problem}100.h5}
kool=${KOOL:-../shared/reference/kool-am/${problem}100.h5}
"$eie" import --from "$kool" --out "$work/kool.h5" >/dev/null
mean() {
  "$eie" solve --dataset "$1" --model "$2" --threads "$threads" --json | json_field mean_cost
}
echo "| n | distribution | instances | $model | Kool et al. | ratio |"
echo "|---|---|---|---|---|---|"
for n in $sizes; do
  count=$((n <= 100 ? 1000 : n <= 200 ? 256 : n <= 500 ? 64 : 32))
  for distribution in $distributions; do
    "$eie" gen --problem "$problem" --n "$n" --count "$count" --seed 4242 \
      --distribution "$distribution" --out "$work/d.h5" >/dev/null
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
while read -r name file optimum; do
  [ "$name" = "$problem" ] || continue
  printf '| %s | %s | %s |\n' "$(basename "${file%.*}")" "$(gap "$file" "$optimum" "$model")" \
    "$(gap "$file" "$optimum" "$work/kool.h5")"
done <<TABLE
tsp data/instances/kroA100.tsp 21282
tsp ${SHARED:-../shared}/instances/ch150.tsp 6528
cvrp ${SHARED:-../shared}/instances/X-n101-k25.vrp 27591
TABLE
