#!/usr/bin/env bash
# Configures build-sanitize/: eie, its tests and the HDF5 fuzz targets, built by
# clang with AddressSanitizer (LeakSanitizer included), UndefinedBehaviorSanitizer
# (stopping at its first report) and libFuzzer's coverage instrumentation.
# - OpenMP is GCC's libgomp, the runtime LibTorch uses: clang's libomp beside it
#   would put two OpenMP runtimes in one process.
# - vptr checks are off: they would check objects made inside LibTorch, which is
#   not instrumented.
# Used by scripts/sanitize.sh and scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in clang clang++; do
  command -v "$tool" >/dev/null ||
    { echo "configure_sanitize.sh: $tool missing (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
done
gomp=$(g++ -print-file-name=libgomp.so)
flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined"
flags+=" -fsanitize=fuzzer-no-link -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DOpenMP_C_FLAGS=-fopenmp=libgomp -DOpenMP_CXX_FLAGS=-fopenmp=libgomp \
  -DOpenMP_C_LIB_NAMES=gomp -DOpenMP_CXX_LIB_NAMES=gomp -DOpenMP_gomp_LIBRARY="$gomp" \
  -DEIE_FUZZ=ON >/dev/null
