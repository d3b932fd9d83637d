#!/usr/bin/env bash
# Compiles, on a machine with nvcc but without a GPU or a CUDA LibTorch, what only a CUDA
# build compiles: the kernels (.cu) with nvcc for the H200's sm_90, and the C++ sources
# that call them or capture CUDA graphs, syntax only, with the flags of BUILD's
# compile_commands.json, their define, and the CUDA headers of this LibTorch and of the
# toolkit. A mistake there then fails here, not in the minutes a GPU is lent.
# Exits 77 (ctest: skipped) where nvcc is not found (PATH, then /usr/local/cuda/bin).
# usage: scripts/check-cuda-sources.sh BUILD SOURCE.cu|SOURCE.cpp[=DEFINE]...
#   (SOURCE relative to the repository root; ctest runs it as `cuda_sources`)
set -uo pipefail
build=${1:?usage: scripts/check-cuda-sources.sh BUILD SOURCE.cu|SOURCE.cpp[=DEFINE]...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "skipped: no nvcc (PATH or /usr/local/cuda/bin)"; exit 77; }
# Where the toolkit's headers are, as nvcc itself reports them (nvcc may be a wrapper).
cuda_includes=$("$nvcc" -v -E -x cu /dev/null -o /dev/null 2>&1 |
  sed -n 's/^#\$ INCLUDES="\(.*\)" *$/\1/p' | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The flags of eie_core's sources (those of the database's last one), without its output,
# input, precompiled header and the models' directory (a quoted define).
flags=$(grep '"command": ' "$build/compile_commands.json" | grep 'CMakeFiles/eie_core\.dir/' |
  tail -1 | sed -e 's/^ *"command": "//' -e 's/",\{0,1\}$//' -e 's/ -DEIE_MODELS_DIR=[^ ]*//' \
    -e 's/ -o [^ ]*//' -e 's/ -c [^ ]*$//' -e 's/ -include [^ ]*cmake_pch[^ ]*//' \
    -e 's/ -Winvalid-pch//')
[ -n "$flags" ] || { echo "no eie_core source in $build/compile_commands.json" >&2; exit 1; }
# Debian's CPU LibTorch ships c10's CUDA headers but not the one CMake writes for a CUDA
# build; after every other include directory, so that a real one wins.
mkdir -p "$work/stub/c10/cuda/impl"
echo '#define C10_CUDA_BUILD_SHARED_LIBS' >"$work/stub/c10/cuda/impl/cuda_cmake_macros.h"

failed=0
for job in "$@"; do
  source=${job%%=*}
  start=$(date +%s)
  if [[ $source == *.cu ]]; then
    "$nvcc" -std=c++17 -O3 -arch=sm_90 -I"$root" -c "$root/$source" -o "$work/kernel.o"
  else
    define=""
    [[ $job == *=* ]] && define="-D${job#*=}"
    (cd "$build" && eval "$flags $define ${cuda_includes//-I/-isystem } -idirafter $work/stub \
      -fsyntax-only $root/$source")
  fi
  status=$?
  echo "$source: $([ $status -eq 0 ] && echo compiles || echo FAILS) ($(($(date +%s) - start)) s)"
  [ $status -eq 0 ] || failed=1
done
exit $failed
