#!/usr/bin/env bash
# The shipped TSP100 and CVRP100 models' whole training, run after run, against CPU-hours:
# each run's greedy validation cost (log.csv) up to the epoch the next run started from,
# placed after the CPU time of the runs before it. Runs that log cpu_seconds are placed
# exactly; the two rollout runs predate that column, and their CPU time is the estimate
# results/models/README.md gives, spread evenly over their epochs. Each run validates on
# its own 1,000 instances (its seed), so steps between runs of about 0.02 are noise.
# Writes results/models/tsp100-lineage.png and cvrp100-lineage.png, and prints the trend
# of each (see trend below) toward its greedy target.
# usage: experiments/model_curves.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh"
models=results/models

# stage LOG LAST_EPOCH OFFSET_HOURS [ESTIMATED_HOURS_PER_EPOCH]: rows "hours,cost" of
# LOG's epochs up to LAST_EPOCH (-1: all); the hours at its end go to $work/end.
stage() {
  awk -F, -v last="$2" -v offset="$3" -v per_epoch="${4:-}" -v end="$work/end" '
    NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
    last >= 0 && $1 > last { exit }
    {
      hours = offset + (per_epoch != "" ? ($1 + 1) * per_epoch : $column["cpu_seconds"] / 3600)
      printf "%.4f,%s\n", hours, $column["val_greedy_cost"]
    }
    END { print hours > end }' "$1"
}

# lineage OUT TITLE YLABEL YRANGE LINES OFFSET_HOURS TARGET STAGE...: STAGE is
# NAME:LOG:LAST[:HOURS_PER_EPOCH], run after run, the first after OFFSET_HOURS (warm
# starts); LINES are extra gnuplot plot items (targets); TARGET is the greedy cost whose
# CPU-hours the trend estimates.
lineage() {
  local out=$1 title=$2 ylabel=$3 yrange=$4 lines=$5 offset=$6 target=$7
  shift 7
  local plots=""
  for spec in "$@"; do
    IFS=: read -r name log last per_epoch <<<"$spec"
    stage "$models/$log" "$last" "$offset" "$per_epoch" >"$work/$name.csv"
    offset=$(cat "$work/end")
    local label=$name
    [ -n "$per_epoch" ] && label="$name (CPU time estimated)"
    plots+="\"$work/$name.csv\" using 1:2 with lines lw 2 title \"$label\", "
    cat "$work/$name.csv" >>"$work/lineage.csv"
  done
  gnuplot <<GNUPLOT
set terminal pngcairo size 1000,560 noenhanced
set output "$out"
set datafile separator ","
set title "$title"
set xlabel "CPU-hours of training, all runs"
set ylabel "$ylabel"
set key top right
set grid
set yrange [$yrange]
plot $plots $lines
GNUPLOT
  echo "wrote $out (${offset} CPU-hours)"
  trend "$work/lineage.csv" "$target" 2
  trend "$work/lineage.csv" "$target" 4
  rm "$work/lineage.csv"
}

# trend CSV TARGET SPAN: least-squares fit cost = a + b log2(hours) over the lineage's
# last SPAN-fold of CPU time (hours >= end / SPAN), and the CPU-hours at which that line
# reaches TARGET. Learning curves flatten about like this; a straight line in hours
# would promise far too much.
trend() {
  awk -F, -v target="$2" -v span="$3" -f experiments/least_squares.awk -f /dev/stdin "$1" <<'AWK'
    BEGIN { n = 0 }  # a number, so that x[n] is x[0], not x[""]
    { h[NR] = $1; c[NR] = $2; end = $1 }
    END {
      for (i = 1; i <= NR; ++i) {
        if (h[i] >= end / span) { x[n] = log(h[i]) / log(2); y[n] = c[i]; ++n }
      }
      fit_line(x, y, n)
      printf "  trend over the last %gx of CPU time (%.1f-%.1f CPU-h, %d validations): " \
             "%+.3f per doubling, now %.3f; %s reached at %s\n", span, end / span, end, n, fit_b,
             fit_a + fit_b * log(end) / log(2), target,
             fit_b < 0 ? sprintf("%.0f CPU-h", 2 ^ ((target - fit_a) / fit_b)) : "never (not falling)"
    }
AWK
}

# TSP: TSP20 warm start (10 minutes on one thread), the rollout run (about 6.5 CPU-hours
# over its 185 epochs) to epoch 142, then the multi-start fine-tunes, each from the last
# epoch named before it (tsp100-long from tsp100-first's last). Its last runs,
# tsp100-varied2 to tsp100-varied9, tsp100-varied11 and tsp100-varied12, trained and
# validated on varied layouts, whose tours are shorter: their costs are not drawn (nor
# their CPU-hours counted); the trend is that of the uniform runs.
lineage "$models/tsp100-lineage.png" "tsp100.h5: greedy validation cost of each run it descends from, up to tsp100-long2 (its varied legs not drawn)" \
  "mean tour length (1,000 held-out instances)" "8.0:10" \
  "8.40 with lines dashtype 2 lc 'gray' title 'target 8.40', 8.12 with lines dashtype 3 lc 'black' title 'Kool et al. 8.12'" \
  0.17 8.40 \
  "tsp100-run (rollout):tsp100-run/log.csv:142:0.0351" \
  "tsp100-finetune (multistart):tsp100-finetune/log.csv:43" \
  "tsp100-bias (+ learned bias):tsp100-bias/log.csv:21" \
  "tsp100-lowlr (lr 2e-5):tsp100-lowlr/log.csv:59" \
  "tsp100-first (+ --learn-first):tsp100-first/log.csv:-1" \
  "tsp100-long (lr 1e-4 falling to 0):tsp100-long/log.csv:-1" \
  "tsp100-long2 (the same, again):tsp100-long2/log.csv:-1"

# CVRP: CVRP20 warm start (0.4 CPU-hours), the rollout run (about 1 CPU-hour over its 13
# epochs), then the multi-start run with a learned bias, and its continuation with the rate
# falling to 0 (cvrp100-long, from cvrp100-bias's last epoch). Its last twenty-six runs,
# cvrp100-varied to cvrp100-varied4, cvrp100-varied6 to cvrp100-varied24, then
# cvrp100-varied26 to cvrp100-varied28, trained and validated on varied layouts: not drawn,
# as TSP's.
lineage "$models/cvrp100-lineage.png" "cvrp100.h5: greedy validation cost of each run it descends from, up to cvrp100-long (its varied legs not drawn)" \
  "mean total route length (1,000 held-out instances)" "16:22" \
  "17.4 with lines dashtype 2 lc 'gray' title 'target 17.4', 16.72 with lines dashtype 3 lc 'black' title 'Kool et al. 16.72'" \
  0.4 16.9 \
  "cvrp100-run (rollout):cvrp100-run/log.csv:12:0.0769" \
  "cvrp100-bias (multistart + learned bias):cvrp100-bias/log.csv:-1" \
  "cvrp100-long (lr 1e-4 falling to 0):cvrp100-long/log.csv:-1"
