#!/usr/bin/env bash
# Benchmark: which training recipe learns most per CPU-second. Trains TSP50 from
# scratch with three recipes for the same budget of process CPU time (validation and
# saving not counted), one after the other, constant learning rate 1e-4, same seed
# and threads, and logs the greedy validation cost (1,000 held-out instances)
# against CPU time:
#   rollout              Kool et al.: batch 256, greedy rollout baseline and t-test
#   multistart           POMO: batch 64, 50 forced first cities each, shared baseline
#   multistart+aug8      Sym-NCO: batch 8, x 8 symmetric copies x 50 starts, one
#                        shared baseline per instance (the same 3,200 trajectories a step)
# Writes OUT/NAME/log.csv per recipe, OUT/curves.png and OUT/table.md (cost after
# 0.25, 0.5, 1 and 2 CPU-hours, where reached). One thread by default: each CPU-second is
# then a CPU-second of work, not of OpenMP threads spinning while the other core is busy.
# Rerunning with a larger budget (or after an interruption) resumes the runs from their
# checkpoints (OUT/NAME/checkpoint.h5, ignored by git; an unfinished run's is committed
# with `git add -f` about once an hour, as the shipped models' runs are, so that a later
# run can resume it, and removed with `git rm` when the curves are done).
# usage: experiments/learning_curves.sh [CPU_HOURS [THREADS [OUT]]]
#   (from the repository root, after scripts/setup.sh; defaults: 0.25, 1,
#   results/learning-curves)
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:-0.25}
threads=${2:-1}
out=${3:-results/learning-curves}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cp build/src/cli/eie "$bin/eie"  # rebuilds during the runs do not touch them
budget=$(awk -v h="$hours" 'BEGIN { print h * 3600 }')

recipes=(
  "rollout|--baseline rollout --batch 256"
  "multistart|--baseline multistart --batch 64"
  "multistart+aug8|--baseline multistart --augment 8 --batch 8"
)
for recipe in "${recipes[@]}"; do
  name=${recipe%%|*} flags=${recipe#*|}
  dir="$out/$name"
  # A run whose log already reaches the budget (cpu_seconds, column 9) is done (its
  # checkpoint may be gone); a log without a checkpoint cannot be resumed, and training
  # from scratch would overwrite it.
  if [ -f "$dir/log.csv" ] && awk -F, -v b="$budget" 'END { exit !($9 >= b) }' "$dir/log.csv"; then
    echo "$name: done, its log reaches $budget CPU-s"
    continue
  fi
  resume=()
  if [ -f "$dir/checkpoint.h5" ]; then
    resume=(--resume)
  elif [ -f "$dir/log.csv" ]; then
    echo "$name: $dir/log.csv has no checkpoint to resume from; move it away to start over" >&2
    exit 1
  fi
  # shellcheck disable=SC2086  # flags are words
  nice "$bin/eie" train --problem tsp --n 50 --epochs 1000000 --steps 10 --lr 1e-4 $flags \
    --cpu-budget "$budget" --val-size 1000 --seed 50 --threads "$threads" --out "$dir" "${resume[@]}"
done

# Cost at each mark: experiments/log_marks.sh's rule, the mean of the validations in the
# last tenth of the budget up to it.
{
  echo "TSP50 from scratch, greedy cost on 1,000 held-out instances (optimum about 5.70)"
  echo "after a budget of training CPU time: the mean of the validations in the last tenth"
  echo "of the budget before each mark ($threads thread(s); \`experiments/learning_curves.sh $hours $threads\`)."
  echo
  echo "| recipe | 0.25 CPU-h | 0.5 CPU-h | 1 CPU-h | 2 CPU-h | epochs | instances seen |"
  echo "|---|---|---|---|---|---|---|"
  for recipe in "${recipes[@]}"; do
    name=${recipe%%|*} flags=${recipe#*|}
    batch=$(echo "$flags" | sed 's/.*--batch \([0-9]*\).*/\1/')
    read -r -a marks <<<"$(experiments/log_marks.sh "$out/$name/log.csv" 900 1800 3600 7200)"
    printf '| %s | %s | %s | %s | %s | %d | %d |\n' "$name" "${marks[@]:0:4}" "${marks[4]}" \
      $((marks[4] * 10 * batch))
  done
} > "$out/table.md"
cat "$out/table.md"

gnuplot <<GNUPLOT
set terminal pngcairo size 1000,560 noenhanced
set output "$out/curves.png"
set datafile separator ","
set title "TSP50 from scratch: greedy validation cost against training CPU time ($threads thread(s))"
set xlabel "CPU-hours of training"
set ylabel "mean tour length (1,000 held-out instances)"
set key top right
set grid
set yrange [5.5:10]
plot 5.70 with lines dashtype 2 lc "gray" title "optimum (about 5.70)", for [name in "rollout multistart multistart+aug8"] "$out/".name."/log.csv" \
     using (\$9/3600):3 skip 1 with linespoints lw 2 pt 7 ps 0.5 title name
GNUPLOT
echo "wrote $out/table.md and $out/curves.png"
