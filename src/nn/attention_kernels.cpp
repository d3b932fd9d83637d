#include "src/nn/attention_kernels.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

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

namespace {

// One operand of a product: a matrix and whether the product takes its transpose.
template <typename T>
struct Factor {
  const T* data;    // row-major storage
  int64_t ld;       // stride between its rows
  bool transposed;  // whether the product takes the stored matrix transposed
};

// Group g's matrix of `m`, transposed in the product when `transpose`.
template <typename T>
Factor<T> factor(const GroupMatrices<T>& m, int64_t g, bool transpose) {
  return {m.data + g * m.group_stride, m.ld, transpose != m.by_column};
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
bool spread(int64_t groups, int64_t work) { return groups > 1 && groups * work >= kParallelWork; }

// A row-major matrix of `ld` per row.
template <typename T>
Factor<T> plain(const T* data, int64_t ld, bool transpose = false) {
  return {data, ld, transpose};
}

// out[e] = -inf where masked[e], in bit operations: the compiler vectorises them, where the
// plain select became a branch per element (perf: most of attention_scores' own time).
template <typename T>
void mask_scores(T* out, const bool* masked, int64_t count) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static_assert(sizeof(Bits) == sizeof(T));
  const T minus_inf = -std::numeric_limits<T>::infinity();
  Bits inf_bits;
  std::memcpy(&inf_bits, &minus_inf, sizeof(T));
  // Read as bytes (0 or 1): a conversion from bool is what the vectoriser refuses.
  const auto* flags = reinterpret_cast<const unsigned char*>(masked);
#pragma omp simd
  for (int64_t e = 0; e < count; ++e) {
    Bits bits;
    std::memcpy(&bits, out + e, sizeof(T));
    const Bits keep = static_cast<Bits>(flags[e]) - 1;  // all ones where not masked
    bits = (bits & keep) | (inf_bits & ~keep);
    std::memcpy(out + e, &bits, sizeof(T));
  }
}

}  // namespace

template <typename T>
void attention_scores(const T* q, const GroupMatrices<T>& keys, const ScoreTerms<T>& terms,
                      const AttentionSizes& s, int64_t first, int64_t last, T* scores) {
  const int64_t area = s.r * s.n;
#pragma omp parallel for schedule(static) if (spread(last - first, area * s.d))
  for (int64_t g = first; g < last; ++g) {
    T* out = scores + (g - first) * area;
    product(s.r, s.n, s.d, terms.scale, plain(q + g * s.r * s.d, s.d), factor(keys, g, true), T{0},
            out, s.n);
    const int64_t b = g / s.M;
    if (terms.beta) {
      const T beta = terms.beta[g % s.M];
      const T* distance = terms.distance + b * area;
      for (int64_t e = 0; e < area; ++e) out[e] -= beta * distance[e];
    }
    if (terms.masked) {
      mask_scores(out, terms.masked + b * area, area);
    }
  }
}

template <typename T>
void attention_mix(const T* rows, const GroupMatrices<T>& values, const AttentionSizes& s,
                   int64_t first, int64_t last, T* out) {
#pragma omp parallel for schedule(static) if (spread(last - first, s.r * s.n * s.d))
  for (int64_t g = first; g < last; ++g) {
    product(s.r, s.d, s.n, T{1}, plain(rows + (g - first) * s.r * s.n, s.n),
            factor(values, g, false), T{0}, out + g * s.r * s.d, s.d);
  }
}

template <typename T>
void attention_backward(const T* q, const GroupMatrices<T>& keys, const GroupMatrices<T>& values,
                        const ScoreTerms<T>& terms, const AttentionSizes& s, const T* rows,
                        const T* grad_out, T* grad_q, T* grad_keys, T* grad_values, T* beta_grads) {
  const int64_t G = s.groups(), area = s.r * s.n;
#pragma omp parallel if (spread(G, area * s.d))
  {
    std::vector<T> grad_scores(static_cast<size_t>(area));  // one group's, in cache
    T* dS = grad_scores.data();
#pragma omp for schedule(static)
    for (int64_t g = 0; g < G; ++g) {
      const T* P = rows + g * area;
      const T* dO = grad_out + g * s.r * s.d;
      const T* qg = q + g * s.r * s.d;
      // d rows = d out values^T; through the softmax: dS = P (dP - sum_j P dP).
      product(s.r, s.n, s.d, T{1}, plain(dO, s.d), factor(values, g, true), T{0}, dS, s.n);
      for (int64_t i = 0; i < s.r; ++i) {
        const T* p = P + i * s.n;
        T* ds = dS + i * s.n;
        T dot = 0;
        // simd: without it the sum is one serial chain of additions (IEEE order), which
        // made this function the step's largest self time after BLAS (perf, CVRP training).
#pragma omp simd reduction(+ : dot)
        for (int64_t j = 0; j < s.n; ++j) dot += p[j] * ds[j];
        for (int64_t j = 0; j < s.n; ++j) ds[j] = p[j] * (ds[j] - dot);
      }
      if (terms.beta) {
        const T* distance = terms.distance + (g / s.M) * area;
        T sum = 0;
#pragma omp simd reduction(+ : sum)
        for (int64_t e = 0; e < area; ++e) sum += dS[e] * distance[e];
        beta_grads[g] = -sum;
      }
      product(s.r, s.d, s.n, terms.scale, plain(dS, s.n), factor(keys, g, false), T{0},
              grad_q + g * s.r * s.d, s.d);
      // dK = scale dS^T q and dV = P^T dO, or their transposes for keys and values
      // stored node axis last (their gradients then accumulate without a transposed copy).
      T* dK = grad_keys + g * s.n * s.d;
      if (keys.by_column) {
        product(s.d, s.n, s.r, terms.scale, plain(qg, s.d, true), plain(dS, s.n), T{0}, dK, s.n);
      } else {
        product(s.n, s.d, s.r, terms.scale, plain(dS, s.n, true), plain(qg, s.d), T{0}, dK, s.d);
      }
      T* dV = grad_values + g * s.n * s.d;
      if (values.by_column) {
        product(s.d, s.n, s.r, T{1}, plain(dO, s.d, true), plain(P, s.n), T{0}, dV, s.n);
      } else {
        product(s.n, s.d, s.r, T{1}, plain(P, s.n, true), plain(dO, s.d), T{0}, dV, s.d);
      }
    }
  }
}

#define EIE_ATTENTION_KERNELS(T)                                                                  \
  template void attention_scores<T>(const T*, const GroupMatrices<T>&, const ScoreTerms<T>&,      \
                                    const AttentionSizes&, int64_t, int64_t, T*);                 \
  template void attention_mix<T>(const T*, const GroupMatrices<T>&, const AttentionSizes&,        \
                                 int64_t, int64_t, T*);                                           \
  template void attention_backward<T>(const T*, const GroupMatrices<T>&, const GroupMatrices<T>&, \
                                      const ScoreTerms<T>&, const AttentionSizes&, const T*,      \
                                      const T*, T*, T*, T*, T*);
EIE_ATTENTION_KERNELS(float)
EIE_ATTENTION_KERNELS(double)
#undef EIE_ATTENTION_KERNELS

}  // namespace eie::nn
