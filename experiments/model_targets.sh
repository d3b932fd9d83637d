#!/usr/bin/env bash
# A TSP or CVRP model measured as results/models/README.md measures the shipped ones: on
# COUNT (default 1,000) test instances of `eie gen --n 100 --seed 4242`, its greedy mean
# and its best policy decodings (mean, seconds per instance), then the gap to the optimum
# on the bundled or shared instance files, greedy and with the policy decoding alone
# (`--decode`, no time limit, no search; aug16: rotated views as well). What a training
# burst's model is judged by.
# Prints a markdown table.
# usage: [MODEL=M.h5] [PROBLEM=tsp|cvrp] experiments/model_targets.sh [THREADS [COUNT]]
source "$(dirname "$0")/preamble.sh"
problem=${PROBLEM:-tsp}
model=${MODEL:-results/models/$problem'100.h5'}
count=${2:-1000}
shared=${SHARED:-../shared}
"$eie" gen --problem "$problem" --n 100 --count "$count" --seed 4242 --out "$work/d.h5" >/dev/null
on_dataset() {  # decoding
  local json
  json=$("$eie" solve --dataset "$work/d.h5" --model "$model" --threads "$threads" --json \
    --decode "$1")
  printf '| %s, %s instances | %.4f | %.3f |\n' "$1" "$count" \
    "$(json_field mean_cost <<<"$json")" "$(json_field seconds_per_instance <<<"$json")"
}
on_file() {  # file optimum decoding
  [ -f "$1" ] || return 0
  local json
  json=$("$eie" solve "$1" --optimum "$2" --model "$model" --threads "$threads" --json \
    --decode "$3")
  printf '| %s, %s, gap to the optimum | %.2f%% | %.3f |\n' "$(basename "$1")" "$3" \
    "$(json_field gap <<<"$json")" "$(json_field seconds <<<"$json")"
}
echo "| $model | value | seconds per instance |"
echo "|---|---|---|"
if [ "$problem" = tsp ]; then
  for decoding in greedy sample:200+aug8 multistart:100+aug8; do on_dataset "$decoding"; done
  for decoding in greedy multistart:100+aug8 multistart:100+aug16; do
    on_file data/instances/kroA100.tsp 21282 "$decoding"
    on_file "$shared/instances/ch150.tsp" 6528 "$decoding"
  done
else
  for decoding in greedy multistart:100+sample:32+aug8 multistart:100+aug8; do
    on_dataset "$decoding"
  done
  for decoding in greedy multistart:100+aug8; do
    on_file "$shared/instances/X-n101-k25.vrp" 27591 "$decoding"
  done
fi
