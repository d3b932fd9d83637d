#pragma once

#include <string>

namespace eie {

// OpenBLAS (Debian 12 ships 0.3.21) picks its kernels by the CPU's model number and
// takes a model newer than it knows for the oldest x86-64 it supports (Prescott: SSE3),
// whatever the CPU's vector units: on a 5th-generation Xeon (model 207, with AVX-512)
// every matrix product ran on Prescott's kernels, and a decode or a training step took
// 2.1-2.5 times as long. Where OpenBLAS fell back so and OPENBLAS_CORETYPE does not
// choose, use_native_blas_kernels() switches it to the kernels the CPU's features allow
// (SkylakeX with AVX-512, Haswell with AVX2 and FMA), as OPENBLAS_CORETYPE would, and sets
// that variable for the processes this one starts. Call it first thing in main, before any
// matrix product. Nothing changes where OpenBLAS is not the BLAS loaded.
void use_native_blas_kernels();

// The BLAS kernels in use, for `eie --version`: "OpenBLAS, SkylakeX kernels" (and why,
// when use_native_blas_kernels() chose them), or "" where OpenBLAS is not loaded.
[[nodiscard]] std::string blas_kernels();

}  // namespace eie
