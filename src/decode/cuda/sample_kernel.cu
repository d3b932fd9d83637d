// sample_rows() on a GPU in one kernel, where LibTorch's ops (cumsum, comparisons,
// reductions) took 17 a decode step. The arithmetic of decode_loop.cpp's draw_rows():
// a row's sum and running sums in double, added in order, compared in the row's type.
#include <cuda_runtime.h>

#include "src/decode/cuda/sample_kernel.h"

namespace eie::cuda {

namespace {

template <typename T>
__global__ void sample_rows_kernel(const T* probs, const T* uniforms, int64_t B, int64_t A,
                                   int64_t* drawn) {
  const int64_t b = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (b >= B) return;
  const T* p = probs + b * A;
  double sum = 0;
  for (int64_t a = 0; a < A; ++a) sum = __dadd_rn(sum, static_cast<double>(p[a]));
  int64_t last = A - 1;  // the last action with mass, where a draw at the total lands
  for (int64_t a = A - 1; a >= 0; --a) {
    if (p[a] > 0) {
      last = a;
      break;
    }
  }
  const T target = uniforms[b] * static_cast<T>(sum);
  double cumulative = 0;
  int64_t a = 0;
  for (; a < A; ++a) {
    cumulative = __dadd_rn(cumulative, static_cast<double>(p[a]));
    if (static_cast<T>(cumulative) > target) break;
  }
  drawn[b] = a < last ? a : last;
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
