#!/usr/bin/env bash
# Builds eie for a GPU in ./build-cuda, against a CUDA LibTorch: Torch_DIR when it is
# set, else the LibTorch inside the Python environment's PyTorch (`import torch`).
# The other dependencies come from Debian packages: through apt where apt works,
# else from a folder of .deb files (scripts/fetch-cuda-debs.sh makes one on a Debian
# machine), unpacked into build-cuda/deps with dpkg -x; only the shared libraries the
# machine lacks are put on the binaries' run path. Then builds everything, or the
# targets named. The CPU build (scripts/setup.sh, ./build) is untouched.
# usage: scripts/setup-cuda.sh [--debs DIR] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
debs=""
if [ "${1:-}" = "--debs" ]; then
  debs=$(realpath "${2:?--debs needs a folder of .deb files}")
  shift 2
fi
fail() { echo "setup-cuda: $*" >&2; exit 1; }

# LibTorch with CUDA.
if [ -z "${Torch_DIR:-}" ]; then
  python3 -c 'import torch' 2>/dev/null ||
    fail "no Torch_DIR given and python3 cannot import torch (a PyTorch with CUDA brings LibTorch)"
  [ "$(python3 -c 'import torch; print(torch.version.cuda is not None)')" = True ] ||
    fail "python3's PyTorch $(python3 -c 'import torch; print(torch.__version__)') has no CUDA"
  Torch_DIR="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')/Torch"
fi
[ -f "$Torch_DIR/TorchConfig.cmake" ] || fail "no TorchConfig.cmake in Torch_DIR=$Torch_DIR"

# Debian's packages: apt, or unpacked .deb files.
cmake_args=()
if [ -z "$debs" ]; then
  command -v apt-get >/dev/null && [ -f /etc/debian_version ] ||
    fail "no apt here: give --debs DIR (made by scripts/fetch-cuda-debs.sh on Debian 12)"
  packages=(cmake ninja-build g++ libhdf5-dev libcxxopts-dev libgtest-dev nlohmann-json3-dev
            libtomlplusplus-dev libgloo-dev)
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    "${packages[@]}" >/dev/null
else
  ls "$debs"/*.deb >/dev/null 2>&1 || fail "--debs $debs: no .deb files there"
  prefix=$PWD/build-cuda/deps
  rm -rf "$prefix" && mkdir -p "$prefix/runtime"
  for f in "$debs"/*.deb; do dpkg -x "$f" "$prefix"; done
  multiarch=x86_64-linux-gnu
  # FindHDF5 looks for include/ and lib/ under HDF5_ROOT: Debian keeps the serial build apart.
  mkdir -p "$prefix/hdf5"
  ln -sfn "$prefix/usr/include/hdf5/serial" "$prefix/hdf5/include"
  ln -sfn "$prefix/usr/lib/$multiarch/hdf5/serial" "$prefix/hdf5/lib"
  # Onto the binaries' run path: HDF5 (always: the headers' version must be the
  # library's) and Debian's other shared libraries whose names the machine does not know.
  known=$(ldconfig -p | awk '{print $1}')
  for lib in "$prefix"/usr/lib/$multiarch/*.so.* "$prefix"/lib/$multiarch/*.so.*; do
    [ -L "$lib" ] || continue  # the names the loader asks for are links to the files
    soname=$(basename "$lib")
    case $soname in
      libhdf5*) ln -sfn "$lib" "$prefix/runtime/$soname" ;;
      *) grep -qxF "$soname" <<<"$known" || ln -sfn "$lib" "$prefix/runtime/$soname" ;;
    esac
  done
  cmake_args+=(-DHDF5_ROOT="$prefix/hdf5" -DHDF5_USE_STATIC_LIBRARIES=OFF
               -DCMAKE_PREFIX_PATH="$prefix/usr;$prefix/usr/lib/$multiarch/cmake"
               -DCMAKE_INCLUDE_PATH="$prefix/usr/include"
               # Headers found by no CMake package (Gloo's, included by LibTorch's c10d).
               -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include"
               -DCMAKE_LIBRARY_PATH="$prefix/usr/lib/$multiarch"
               -DCMAKE_BUILD_RPATH="$prefix/runtime"
               -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$prefix/runtime")
fi

# CMake and Ninja from the Python environment where the system has none.
for tool in cmake ninja; do
  command -v $tool >/dev/null || fail "$tool not found (apt: cmake ninja-build; pip: cmake ninja)"
done
# nvcc for eie's own kernels: the CUDA Toolkit's, where PATH does not name one.
if ! command -v nvcc >/dev/null && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
start=$(date +%s)
mkdir -p build-cuda
# No Python module: it is built against Debian's python3-torch, not this LibTorch.
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DTorch_DIR="$Torch_DIR" -DEIE_PYTHON=OFF \
  "${cmake_args[@]}" >build-cuda/configure.log 2>&1 ||
  { tail -30 build-cuda/configure.log >&2; fail "configure failed (build-cuda/configure.log)"; }
if [ $# -gt 0 ]; then
  cmake --build build-cuda --target "$@" -- -j"$(nproc)" -k 0
else
  cmake --build build-cuda -- -j"$(nproc)" -k 0
fi
echo "setup-cuda: built in $(( $(date +%s) - start )) s against $Torch_DIR"
