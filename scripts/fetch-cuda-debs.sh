#!/usr/bin/env bash
# On a Debian 12 machine with apt: downloads the .deb files that scripts/setup-cuda.sh
# unpacks on a machine without a package registry (e.g. a GPU machine whose PyTorch
# wheel brings LibTorch): the headers eie builds against, the static GoogleTest
# libraries, and HDF5 with the shared libraries it needs at run time.
# usage: scripts/fetch-cuda-debs.sh DIR   (about 12 MB)
set -euo pipefail
dir=${1:?usage: scripts/fetch-cuda-debs.sh DIR}
mkdir -p "$dir"
headers=(libhdf5-dev hdf5-helpers libcxxopts-dev libtomlplusplus-dev nlohmann-json3-dev libgloo-dev
         zlib1g-dev libaec-dev libgtest-dev libgmock-dev)
runtime=(libhdf5-103-1 libhdf5-cpp-103-1 libhdf5-hl-100 libhdf5-hl-cpp-100 libtomlplusplus3
         libaec0 libsz2 libcurl4 libcurl3-gnutls libssl3 libnghttp2-14 libidn2-0 librtmp1
         libssh2-1 libpsl5 libgssapi-krb5-2 libldap-2.5-0 libzstd1 libbrotli1 libunistring2
         libgnutls30 libhogweed6 libnettle8 libgmp10 libkrb5-3 libk5crypto3 libkrb5support0
         libsasl2-2 libp11-kit0 libtasn1-6 libffi8)
apt-get update -qq
cd "$dir"
apt-get download "${headers[@]}" "${runtime[@]}" 2>&1 | grep -v '^Get:' || true
ls *.deb | wc -l | xargs echo "debs in $dir:"
