#!/bin/sh
# Windowed (K = 100) against full attention at n = 1600, batch 8, on THREADS threads
# (default 2): one attention layer and the whole encoder, seconds and peak memory.
# Each mode runs in a fresh process; the encoder's own memory is the peak minus
# the idle process's. Run from the repository root after building.
set -e
bin=build/experiments/window_speed
threads=${1:-2}
export OMP_NUM_THREADS=$threads OMP_WAIT_POLICY=PASSIVE
$bin idle
$bin naive
$bin neighbours 100
for mode in attention encoder; do
  $bin $mode 0
  $bin $mode 100
done
