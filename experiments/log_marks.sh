#!/usr/bin/env bash
# A training log read at marks of training CPU time: at each mark the mean greedy
# validation cost of the epochs logged in the last tenth before it (single validations of
# 1,000 instances move by about 0.1 from epoch to epoch; "-" where the log does not reach
# the mark), then the log's epochs and its seconds (of that clock) per epoch after the
# first (which carries the start). One line, fields separated by spaces: what
# learning_curves.sh's table and the recipe comparisons of results/models/README.md are
# read with. CLOCK=train_seconds reads it at marks of training wall clock instead: a run
# trained in GPU bursts (results/models/gpu) at marks of GPU-seconds.
# usage: [CLOCK=cpu_seconds|train_seconds] experiments/log_marks.sh LOG MARK...   (marks in seconds)
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" 1
[ $# -ge 2 ] || { echo "usage: [CLOCK=COLUMN] $0 LOG MARK..." >&2; exit 2; }
log=$1
shift
awk -F, -v marks="$*" -v clock="${CLOCK:-cpu_seconds}" '
  BEGIN { count_marks = split(marks, mark, " ") }
  NR == 1 {
    for (i = 1; i <= NF; ++i) column[$i] = i
    if (!(clock in column)) { print "log_marks: the log has no column " clock > "/dev/stderr"; bad = 1; exit 1 }
    next
  }
  {
    t = $column[clock]
    for (m = 1; m <= count_marks; ++m)
      if (t > 0.9 * mark[m] && t <= mark[m] + 30) { sum[m] += $column["val_greedy_cost"]; count[m]++ }
    if (NR == 2) first = t
    epochs = $1 + 1
  }
  END {
    if (bad) exit 1
    for (m = 1; m <= count_marks; ++m) printf "%s ", count[m] ? sprintf("%.3f", sum[m] / count[m]) : "-"
    printf "%d %.1f\n", epochs, (epochs > 1 ? (t - first) / (epochs - 1) : 0)
  }' "$log"
