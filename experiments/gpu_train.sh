#!/usr/bin/env bash
# One burst of a model trained on a GPU, in one call on the GPU machine: builds the `eie`
# binary for CUDA (scripts/setup-cuda.sh; only `eie` where build-cuda is configured),
# continues the run kept in results/models/gpu/RUN and trains it on the GPU for at most
# SECONDS of wall clock (--stop-after), the learning rate falling over the run budget its
# flags give (--run-budget) across all bursts. RUN/flags holds the run's `eie train`
# flags, RUN/first those of its first burst alone (e.g. --init MODEL); the first burst
# writes RUN's checkpoint, later ones --resume it. Leaves the run directory (checkpoint,
# model, log) and the burst's logs in $OUT/RUN, to copy back over results/models/gpu/RUN
# and commit right away: the tree keeps one checkpoint per run, replaced at each burst.
# usage: OUT=DIR experiments/gpu_train.sh RUN SECONDS [DEBS_DIR]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: OUT=DIR experiments/gpu_train.sh RUN SECONDS [DEBS_DIR]"
run=${1:?$usage}
seconds=${2:?$usage}
kept=results/models/gpu/$run
[ -f "$kept/flags" ] || { echo "gpu_train: no $kept/flags" >&2; exit 1; }
out=${OUT:?$usage}/$run
mkdir -p "$out"
cp -r "$kept"/. "$out"/
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpu.txt" 2>&1 || true
start=$(date +%s)
if [ -f build-cuda/build.ninja ]; then  # configured already (gpu_session.sh): build only
  cmake --build build-cuda --target eie >"$out/build.log" 2>&1
else
  scripts/setup-cuda.sh ${3:+--debs "$3"} eie >"$out/build.log" 2>&1
fi
echo "build: $(($(date +%s) - start)) s" >"$out/burst.txt"
read -r -a flags <"$kept/flags"
if [ -f "$out/checkpoint.h5" ]; then
  flags+=(--resume)
elif [ -f "$kept/first" ]; then
  read -r -a first <"$kept/first"
  flags+=("${first[@]}")
fi
start=$(date +%s)
status=0
build-cuda/src/cli/eie train "${flags[@]}" --device cuda --stop-after "$seconds" --out "$out" \
  2>"$out/train.err" || status=$?
echo "train: exit $status in $(($(date +%s) - start)) s: eie train ${flags[*]} --device cuda" \
  "--stop-after $seconds" >>"$out/burst.txt"
tail -n 3 "$out/log.csv" >>"$out/burst.txt" 2>/dev/null || true
exit "$status"
