#include "src/nn/pointer_kernels.h"

#include <algorithm>

#include "src/nn/blas_product.h"
#include "src/nn/mask_bits.h"

namespace eie::nn {

namespace {
// Elements an elementwise pass gives each OpenMP chunk.
constexpr int64_t kChunk = int64_t{1} << 14;
}  // namespace

template <typename T>
void pointer_products(const T* query, const T* keys, const PointerSizes& s, T* scores) {
#pragma omp parallel for schedule(static) if (spread(s.B, s.T * s.n * s.E))
  for (int64_t b = 0; b < s.B; ++b) {
    product(s.T, s.n, s.E, T{1}, plain(query + b * s.T * s.E, s.E),
            plain(keys + b * s.E * s.n, s.n), T{0}, scores + b * s.T * s.n, s.n);
  }
}

template <typename T>
void pointer_logits(const T* squashed, T clip, T beta, const T* distance, const bool* masked,
                    int64_t count, T* logits) {
  const int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) if (count >= kParallelWork)
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t begin = c * kChunk, end = std::min(count, begin + kChunk);
    if (distance) {
#pragma omp simd
      for (int64_t e = begin; e < end; ++e) logits[e] = squashed[e] * clip - beta * distance[e];
    } else {
#pragma omp simd
      for (int64_t e = begin; e < end; ++e) logits[e] = squashed[e] * clip;
    }
    mask_scores(logits + begin, masked + begin, end - begin);
  }
}

template <typename T>
void pointer_score_grads(T* grad, const T* squashed, T clip, const T* distance, int64_t B,
                         int64_t per_instance, T* beta_parts) {
#pragma omp parallel for schedule(static) if (B > 1 && B * per_instance >= kParallelWork)
  for (int64_t b = 0; b < B; ++b) {
    T* g = grad + b * per_instance;
    const T* u = squashed + b * per_instance;
    if (distance) {
      const T* d = distance + b * per_instance;
      T sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t e = 0; e < per_instance; ++e) sum += g[e] * d[e];
      beta_parts[b] = -sum;
    }
#pragma omp simd
    for (int64_t e = 0; e < per_instance; ++e) g[e] = g[e] * clip * (1 - u[e] * u[e]);
  }
}

template <typename T>
void pointer_product_grads(const T* query, const T* keys, const T* grad_scores,
                           const PointerSizes& s, T scale, T* grad_query, T* grad_keys) {
#pragma omp parallel for schedule(static) if (spread(s.B, 2 * s.T * s.n * s.E))
  for (int64_t b = 0; b < s.B; ++b) {
    const T* q = query + b * s.T * s.E;
    const T* k = keys + b * s.E * s.n;
    const T* dS = grad_scores + b * s.T * s.n;
    product(s.T, s.E, s.n, scale, plain(dS, s.n), plain(k, s.n, true), T{0},
            grad_query + b * s.T * s.E, s.E);
    product(s.E, s.n, s.T, scale, plain(q, s.E, true), plain(dS, s.n), T{0},
            grad_keys + b * s.E * s.n, s.n);
  }
}

#define EIE_POINTER_KERNELS(T)                                                                     \
  template void pointer_products<T>(const T*, const T*, const PointerSizes&, T*);                  \
  template void pointer_logits<T>(const T*, T, T, const T*, const bool*, int64_t, T*);             \
  template void pointer_score_grads<T>(T*, const T*, T, const T*, int64_t, int64_t, T*);           \
  template void pointer_product_grads<T>(const T*, const T*, const T*, const PointerSizes&, T, T*, \
                                         T*);
EIE_POINTER_KERNELS(float)
EIE_POINTER_KERNELS(double)
#undef EIE_POINTER_KERNELS

}  // namespace eie::nn
