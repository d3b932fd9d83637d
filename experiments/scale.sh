#!/usr/bin/env bash
# Scale benchmark: `eie solve` with its defaults (the shipped policy, in tiles of 100
# above 2,000 cities) and with `--method nn --improve oropt`, on uniform random EUC_2D
# instances of 20,000 and 100,000 cities (coordinates U[0, 10^6), seeded), with the
# time solving took, the whole command's wall time and its peak memory. Rewrites
# the part of results/speed.md between its "scale.sh: begin" and "scale.sh: end" markers.
# usage: experiments/scale.sh [THREADS]   (from the repository root, after scripts/setup.sh)
source "$(dirname "$0")/preamble.sh"

{
  echo "Command: \`experiments/scale.sh $threads\` ($(date -u +%Y-%m-%d), $threads threads)."
  echo
  echo "| cities | method | cost | solving (s) | whole command (s) | peak memory (MiB) |"
  echo "|---|---|---|---|---|---|"
  for n in 20000 100000; do
    awk -v n="$n" 'BEGIN {
      srand(n)
      printf "NAME : u%d\nTYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n", n, n
      for (i = 1; i <= n; ++i) printf "%d %d %d\n", i, int(rand() * 1e6), int(rand() * 1e6)
      print "EOF" }' > "$work/u$n.tsp"
    for method in "defaults" "nn + oropt"; do
      flags=()
      [ "$method" = "nn + oropt" ] && flags=(--method nn --improve oropt)
      /usr/bin/time -f "%e %M" -o "$work/time" "$eie" solve "$work/u$n.tsp" "${flags[@]}" \
        --threads "$threads" --json > "$work/out.json" 2>/dev/null
      read -r wall peak < "$work/time"
      awk -v n="$n" -v m="$method" -v wall="$wall" -v peak="$peak" -F'[:,}]' '{
        printf "| %d | %s | %.0f | %.2f | %.2f | %.0f |\n", n, m, $2, $4, wall, peak / 1024 }' \
        "$work/out.json"
    done
  done
} > "$work/block"
cat "$work/block"
experiments/replace_block.sh results/speed.md scale.sh "$work/block"
