#pragma once

// One matrix product through the system BLAS, for the CPU kernels that run a product per
// (instance, head) inside their own OpenMP loops (attention_kernels, pointer_kernels; no
// LibTorch).

#include <cstdint>
#include <type_traits>

#include "src/nn/head_kernels.h"  // kParallelWork

// The Fortran BLAS interface of libblas.so.3: OpenBLAS's OpenMP build with
// libopenblas0-openmp (scripts/setup.sh), as LibTorch uses it. Inside the kernels' OpenMP
// regions it runs each product on the calling thread.
extern "C" {
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
}

namespace eie::nn {

// One operand of a product: a matrix and whether the product takes its transpose.
template <typename T>
struct Factor {
  const T* data;    // row-major storage
  int64_t ld;       // stride between its rows
  bool transposed;  // whether the product takes the stored matrix transposed
};

// A row-major matrix of `ld` per row.
template <typename T>
Factor<T> plain(const T* data, int64_t ld, bool transpose = false) {
  return {data, ld, transpose};
}

// Row-major c [rows, cols] = alpha a b + beta c, a [rows, inner] and b [inner, cols]
// after their transposes. BLAS is column-major: it computes c^T = b^T a^T.
template <typename T>
void product(int64_t rows, int64_t cols, int64_t inner, T alpha, Factor<T> a, Factor<T> b, T beta,
             T* c, int64_t ldc) {
  // In BLAS's column-major terms: c^T [cols, rows] = b^T [cols, inner] a^T [inner, rows].
  const int m = static_cast<int>(cols), n = static_cast<int>(rows), k = static_cast<int>(inner);
  const int ld_first = static_cast<int>(b.ld), ld_second = static_cast<int>(a.ld);
  const int ld_out = static_cast<int>(ldc);
  const char op_first = b.transposed ? 'T' : 'N', op_second = a.transposed ? 'T' : 'N';
  if constexpr (std::is_same_v<T, float>) {
    sgemm_(&op_first, &op_second, &m, &n, &k, &alpha, b.data, &ld_first, a.data, &ld_second, &beta,
           c, &ld_out);
  } else {
    dgemm_(&op_first, &op_second, &m, &n, &k, &alpha, b.data, &ld_first, a.data, &ld_second, &beta,
           c, &ld_out);
  }
}

// Whether `groups` products of `work` multiply-adds each go to OpenMP threads: a single
// product stays outside a parallel region, where BLAS may use the threads itself.
inline bool spread(int64_t groups, int64_t work) {
  return groups > 1 && groups * work >= kParallelWork;
}

}  // namespace eie::nn
