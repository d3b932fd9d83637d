#!/usr/bin/env bash
# `eie solve FILE` as a user runs it, with no flags (the anytime solver and its default
# time limit, 0.02 s a node, 2 to 60 s), against the problem's classical construction +
# local search (TSP: nn + oropt, CVRP: savings + local), on the public instances with
# optima (../shared/instances) and on uniform and clustered instances of 200 to 2,000
# nodes written by experiments/write_instances.awk (seed 1). Whole-command wall time,
# on an otherwise idle machine. Prints a markdown table (results/solver.md).
# usage: experiments/solver_defaults.sh [THREADS [SIZES]]   (from the repository root)
source "$(dirname "$0")/preamble.sh"
sizes=${2:-200 500 1000 2000}
shared=${SHARED:-../shared/instances}

# cost and wall seconds of one command
measure() {
  local start end out
  start=$(date +%s.%N)
  out=$("$eie" solve "$@" --threads "$threads" --json 2>/dev/null)
  end=$(date +%s.%N)
  printf '%s %.1f' "$(echo "$out" | json_field cost)" "$(echo "$end - $start" | bc)"
}
percent() { printf '%.2f%%' "$(echo "scale=6; 100 * ($1 - $2) / $2" | bc)"; }  # a above b
row() {  # label, file, classical flags, [optimum]
  local label=$1 file=$2 classical=$3 optimum=${4:-}
  read -r ours ours_s <<<"$(measure "$file")"
  # shellcheck disable=SC2086
  read -r theirs theirs_s <<<"$(measure "$file" $classical)"
  local gap_ours="" gap_theirs=""
  if [ -n "$optimum" ]; then
    gap_ours=$(percent "$ours" "$optimum")
    gap_theirs=$(percent "$theirs" "$optimum")
  fi
  echo "| $label | $ours $gap_ours | $ours_s | $theirs $gap_theirs | $theirs_s | $(percent "$ours" "$theirs") |"
}

echo "| instance | eie solve FILE: cost (gap) | s | classical: cost (gap) | s | eie vs classical |"
echo "|---|---|---|---|---|---|"
tsp_classical="--method nn --improve oropt"
cvrp_classical="--method savings --improve local"
[ -f "$shared/kroA100.tsp" ] && row kroA100 "$shared/kroA100.tsp" "$tsp_classical" 21282
[ -f "$shared/ch150.tsp" ] && row ch150 "$shared/ch150.tsp" "$tsp_classical" 6528
[ -f "$shared/X-n101-k25.vrp" ] && row X-n101-k25 "$shared/X-n101-k25.vrp" "$cvrp_classical" 27591
for kind in tsp cvrp; do
  classical=$tsp_classical
  [ "$kind" = cvrp ] && classical=$cvrp_classical
  for layout in uniform clustered; do
    for n in $sizes; do
      file=$work/$kind-$layout-$n.$([ "$kind" = cvrp ] && echo vrp || echo tsp)
      awk -v kind="$kind" -v layout="$layout" -v n="$n" -v seed=1 \
        -f experiments/write_instances.awk >"$file"
      row "$kind $layout $n" "$file" "$classical"
    done
  done
done
