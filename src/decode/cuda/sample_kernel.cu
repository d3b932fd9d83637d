// sample_rows() on a GPU in one kernel, one thread a row, where LibTorch's ops (cumsum,
// comparisons, reductions) took 17 a decode step: draw_row.h, as the CPU's loop.
#include <cuda_runtime.h>

#include "src/decode/cuda/sample_kernel.h"
#include "src/decode/draw_row.h"

namespace eie::cuda {

namespace {

template <typename T>
__global__ void sample_rows_kernel(const T* probs, const T* uniforms, int64_t B, int64_t A,
                                   int64_t* drawn) {
  const int64_t b = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (b < B) drawn[b] = draw_row(probs + b * A, A, uniforms[b]);
}

template <typename T>
int sample_rows(const T* probs, const T* uniforms, int64_t B, int64_t A, int64_t* drawn,
                void* stream) {
  constexpr int threads = 128;
  const int64_t blocks = (B + threads - 1) / threads;
  sample_rows_kernel<T>
      <<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(stream)>>>(
          probs, uniforms, B, A, drawn);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

int sample_rows_float(const float* probs, const float* uniforms, int64_t B, int64_t A,
                      int64_t* drawn, void* stream) {
  return sample_rows(probs, uniforms, B, A, drawn, stream);
}
int sample_rows_double(const double* probs, const double* uniforms, int64_t B, int64_t A,
                       int64_t* drawn, void* stream) {
  return sample_rows(probs, uniforms, B, A, drawn, stream);
}

}  // namespace eie::cuda
