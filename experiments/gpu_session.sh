#!/usr/bin/env bash
# Everything one short visit to a GPU machine checks, in one call, each step's log and a
# summary (exit status and seconds per step) kept in $OUT (default build-cuda/session):
# the CUDA build (scripts/setup-cuda.sh), the `cuda` tests (in SHARDS processes sharing
# the GPU, default 8; eie's kernels off for the rest where their tests fail), with
# BURST="RUN SECONDS" one training burst of results/models/gpu/RUN on the same build
# (experiments/gpu_train.sh; its files in $OUT/RUN; skipped where the training gradients
# tests fail), experiments/gpu_speed.sh's SECTIONS (default "greedy train"), the fast suite
# against the CUDA LibTorch, where a training step's time goes
# (experiments/rollout_step_profile, rollout and multi-start), then the rest of the suite
# (the binary's tests: what time is left is theirs). A step that fails does
# not stop the next. The call has SESSION_SECONDS (default 560) in all: each step runs for
# at most what is left, a step with nothing left is skipped, and the burst trains for at
# most what is left less BURST_MARGIN seconds (default 90: start, last step, validation,
# saving), so that a call cut at its limit still brings back a saved checkpoint.
# usage: experiments/gpu_session.sh REF_AM_PY [DEBS_DIR]   (from the repository root)
set -uo pipefail
cd "$(dirname "$0")/.."
reference=${1:?usage: experiments/gpu_session.sh REF_AM_PY [DEBS_DIR]}
out=${OUT:-build-cuda/session}
ends=$(($(date +%s) + ${SESSION_SECONDS:-560}))
mkdir -p "$out"
left() { echo $((ends - $(date +%s))); }
step() {  # name, command...
  local name=$1 start status
  shift
  if [ "$(left)" -lt 15 ]; then
    echo "$name: skipped, the session's time is spent" | tee -a "$out/summary.txt"
    return
  fi
  start=$(date +%s)
  timeout -k 5 "$(left)" "$@" >"$out/$name.log" 2>&1
  status=$?
  echo "$name: exit $status in $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpu.txt" 2>&1
step build scripts/setup-cuda.sh ${2:+--debs "$2"}
# CUDA graphs (src/agent/graphed_rollouts.cpp) and eie's own kernels (src/*/cuda/, nvcc)
# compile only here: if either breaks the configure or the build, the rest of the visit
# runs without it.
without=()
grep -q "FAILED: .*graphed_rollouts" "$out/build.log" && without+=(-D EIE_CUDA_GRAPHS=OFF)
grep -qE "FAILED: .*(cuda_kernels|decode_kernels|sample_kernel|device_kernels|device_sampling)|CMAKE_CUDA|CUDA compiler" \
  "$out/build.log" && without+=(-D EIE_CUDA_KERNELS=OFF)
if [ ${#without[@]} -gt 0 ]; then
  step configure_without cmake "${without[@]}" -S . -B build-cuda
  step build_without cmake --build build-cuda -- -j"$(nproc)" -k 0
fi
# The cuda tests in shards side by side (each case is small next to the GPU; their CPU
# halves share the cores), one log per shard.
cuda_shards() {
  local shards=${SHARDS:-8} status=0 i pids=()
  trap 'kill "${pids[@]}" 2>/dev/null' TERM  # step's timeout ends the shards too
  for ((i = 0; i < shards; ++i)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=$(($(nproc) / shards + 1)) \
      build-cuda/tests/eie_tests_cuda >"$out/cuda_tests.$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || status=1; done
  grep -h "^\[  FAILED  \]\|^\[  PASSED  \]" "$out"/cuda_tests.*.log
  return $status
}
export -f cuda_shards && export out
step cuda_tests bash -c cuda_shards
# Kernels that fail their own tests stay out of the burst and the timings.
if grep -qh "^\[  FAILED  \] Cuda\.\(DecodeKernels\|SamplingAndDistance\)" "$out"/cuda_tests.*.log; then
  export EIE_CUDA_KERNELS=0
  echo "eie's CUDA kernels failed their tests: the rest runs without them (EIE_CUDA_KERNELS=0)" |
    tee -a "$out/summary.txt"
fi
# A burst trains only where a training step's gradients are the CPU's.
if [ -n "${BURST:-}" ] &&
  grep -qh "^\[  FAILED  \] Cuda\.\(TrainingStep\|MultiStartStep\)GradientsAgree" "$out"/cuda_tests.*.log; then
  echo "burst: skipped, the GPU's training gradients are not the CPU's (cuda_tests)" |
    tee -a "$out/summary.txt"
  BURST=""
fi
if [ -n "${BURST:-}" ]; then
  read -r burst_run burst_seconds <<<"$BURST"
  seconds=$(($(left) - ${BURST_MARGIN:-90}))
  [ "$seconds" -gt "$burst_seconds" ] && seconds=$burst_seconds
  if [ "$seconds" -ge 60 ]; then
    OUT=$out step burst experiments/gpu_train.sh "$burst_run" "$seconds" ${2:+"$2"}
  else
    echo "burst: skipped, $seconds s left for it" | tee -a "$out/summary.txt"
  fi
fi
SECTIONS=${SECTIONS:-greedy train} step speed experiments/gpu_speed.sh "$reference"
step fast_tests ctest --test-dir build-cuda -L fast -j "$(nproc)" --timeout 300
profile=build-cuda/experiments/rollout_step_profile
step profile_rollout "$profile" 2 1024 "$(nproc)" 0 ops bias cuda
step profile_multistart "$profile" 2 64 "$(nproc)" 100 ops bias cuda
step slow_tests ctest --test-dir build-cuda -L slow -j "$(nproc)" --timeout 300
