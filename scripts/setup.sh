#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), then configures and builds eie
# in ./build: everything, or only the targets named (e.g. `scripts/setup.sh eie`:
# the binary without the tests). Idempotent: fast when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ libtorch-dev libopenblas0-openmp libhdf5-dev libcxxopts-dev
          libgtest-dev nlohmann-json3-dev libtomlplusplus-dev gnuplot-nox libgloo-dev
          pybind11-dev python3-dev python3-torch python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEIE_WERROR="$werror" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build --target "$@" -- -j"$(nproc)"
else
  cmake --build build -- -j"$(nproc)"
fi
