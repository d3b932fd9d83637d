#!/usr/bin/env bash
# Plots an eie training log (log.csv) as PNG: train and validation cost per epoch.
# usage: experiments/plot_training.sh LOG.csv OUT.png "title"
set -euo pipefail
log=$1 out=$2 title=${3:-training}
gnuplot <<GNUPLOT
set terminal pngcairo size 900,540 noenhanced
set output "$out"
set datafile separator ","
set title "$title"
set xlabel "epoch"
set ylabel "mean tour length"
set key top right
set grid
plot "$log" using 1:2 skip 1 with lines lw 2 title "sampled (training)", \
     "$log" using 1:3 skip 1 with lines lw 2 title "greedy (held-out)"
GNUPLOT
