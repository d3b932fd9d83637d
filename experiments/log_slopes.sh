#!/usr/bin/env bash
# How fast a run learned over a span of its epochs, per CPU-hour: the least-squares slope
# of the sampled training cost and of the greedy validation cost against the log's
# cpu_seconds, and the mean of each over the span's first and last five epochs.
# usage: experiments/log_slopes.sh LOG FIRST_EPOCH LAST_EPOCH
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" 1
[ $# -eq 3 ] || { echo "usage: $0 LOG FIRST_EPOCH LAST_EPOCH" >&2; exit 2; }
awk -F, -v first="$2" -v last="$3" -f experiments/least_squares.awk -f /dev/stdin "$1" <<'AWK'
  BEGIN { k = 0 }
  NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
  $1 >= first && $1 <= last {
    x[k] = $column["cpu_seconds"] / 3600; train[k] = $column["mean_train_cost"]
    val[k] = $column["val_greedy_cost"]; lr[k] = $column["lr"]; ++k
  }
  function slope(y) { fit_line(x, y, k); return fit_b }
  function mean(y, from, to,    i, s) { for (i = from; i < to; ++i) s += y[i]; return s / (to - from) }
  END {
    if (k < 10) { print "need at least 10 epochs in the span, got " k > "/dev/stderr"; exit 1 }
    printf "epochs %d-%d (lr %s), %.2f CPU-h: training cost %.3f -> %.3f (%+.3f per CPU-h), " \
           "greedy validation %.3f -> %.3f (%+.3f per CPU-h)\n", first, last, lr[0], x[k - 1] - x[0],
           mean(train, 0, 5), mean(train, k - 5, k), slope(train),
           mean(val, 0, 5), mean(val, k - 5, k), slope(val)
  }
AWK
