#pragma once

// Launchers of the sampling kernel (sample_kernel.cu, built by nvcc in the CUDA build
// only): plain pointers and sizes, so that nvcc never parses LibTorch's headers.

#include <cstdint>

namespace eie::cuda {

// sample_rows()'s draw of each row of probs [B, A] with its uniform [B] into drawn [B]
// (int64): one thread a row, summing in double in the CPU loop's order, so the CPU's
// draws bit for bit. Returns the launch's CUDA error (0: launched) on `stream`.
[[nodiscard]] int sample_rows_float(const float* probs, const float* uniforms, int64_t B, int64_t A,
                                    int64_t* drawn, void* stream);
[[nodiscard]] int sample_rows_double(const double* probs, const double* uniforms, int64_t B,
                                     int64_t A, int64_t* drawn, void* stream);

}  // namespace eie::cuda
