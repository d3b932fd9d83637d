#!/usr/bin/env bash
# Everything one short visit to a GPU machine checks, in one call, each step's log and a
# summary (exit status and seconds per step) kept in $OUT (default build-cuda/session):
# the CUDA build (scripts/setup-cuda.sh), the `cuda` tests, the fast suite against the
# CUDA LibTorch, then experiments/gpu_speed.sh's SECTIONS (default "greedy train"), and
# with BURST="RUN SECONDS" one training burst of results/models/gpu/RUN on the same build
# (experiments/gpu_train.sh; its files in $OUT/RUN). A step that fails does not stop the next.
# usage: experiments/gpu_session.sh REF_AM_PY [DEBS_DIR]   (from the repository root)
set -uo pipefail
cd "$(dirname "$0")/.."
reference=${1:?usage: experiments/gpu_session.sh REF_AM_PY [DEBS_DIR]}
out=${OUT:-build-cuda/session}
mkdir -p "$out"
step() {  # name, command...
  local name=$1 start status
  shift
  start=$(date +%s)
  "$@" >"$out/$name.log" 2>&1
  status=$?
  echo "$name: exit $status in $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpu.txt" 2>&1
step build scripts/setup-cuda.sh ${2:+--debs "$2"}
# CUDA graphs (src/agent/graphed_rollouts.cpp) compile only here: if they break the
# build, the rest of the visit runs without them.
if grep -q "FAILED: .*graphed_rollouts" "$out/build.log"; then
  step configure_without_graphs cmake -D EIE_CUDA_GRAPHS=OFF -S . -B build-cuda
  step build_without_graphs cmake --build build-cuda -- -j"$(nproc)" -k 0
fi
step cuda_tests build-cuda/tests/eie_tests_cuda
step fast_tests ctest --test-dir build-cuda -L fast -j "$(nproc)" --timeout 300
SECTIONS=${SECTIONS:-greedy train} step speed experiments/gpu_speed.sh "$reference"
if [ -n "${BURST:-}" ]; then
  read -r burst_run burst_seconds <<<"$BURST"
  export OUT=$out
  step burst experiments/gpu_train.sh "$burst_run" "$burst_seconds" ${2:+"$2"}
fi
