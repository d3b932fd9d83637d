#!/usr/bin/env bash
# How far a model trained on uniform squares falls behind Kool et al.'s weights when the
# cities are laid out otherwise: greedy mean tour length of the shipped tsp100.h5 and of
# Kool et al.'s TSP100 weights (imported from ../shared) on the same instances, per
# distribution (eie gen --distribution) and size, and the ratio. Prints a markdown table.
# usage: experiments/distribution_gaps.sh [THREADS [SIZES [DISTRIBUTIONS]]]
source "$(dirname "$0")/preamble.sh"
sizes=${2:-100 200 500 1000}
distributions=${3:-uniform clustered mixed varied}
kool=${KOOL:-../shared/reference/kool-am/tsp100.h5}
"$eie" import --from "$kool" --out "$work/kool.h5" >/dev/null
mean() { "$eie" solve --dataset "$1" --model "$2" --threads "$threads" --json |
  sed -E 's/.*"mean_cost":([0-9.eE+-]+).*/\1/'; }
echo "| n | distribution | instances | shipped tsp100.h5 | Kool et al. | shipped / Kool |"
echo "|---|---|---|---|---|---|"
for n in $sizes; do
  count=$((n <= 100 ? 1000 : n <= 200 ? 256 : n <= 500 ? 64 : 32))
  for distribution in $distributions; do
    "$eie" gen --n "$n" --count "$count" --seed 4242 --distribution "$distribution" \
      --out "$work/d.h5" >/dev/null
    ours=$(mean "$work/d.h5" results/models/tsp100.h5)
    theirs=$(mean "$work/d.h5" "$work/kool.h5")
    printf '| %s | %s | %s | %.4f | %.4f | %.4f |\n' "$n" "$distribution" "$count" "$ours" \
      "$theirs" "$(echo "$ours / $theirs" | bc -l)"
  done
done
