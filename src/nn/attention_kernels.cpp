#include "src/nn/attention_kernels.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/nn/blas_product.h"
#include "src/nn/mask_bits.h"

namespace eie::nn {

namespace {

// Group g's matrix of `m`, transposed in the product when `transpose`.
template <typename T>
Factor<T> factor(const GroupMatrices<T>& m, int64_t g, bool transpose) {
  return {m.data + g * m.group_stride, m.ld, transpose != m.by_column};
}

}  // namespace

template <typename T>
void attention_scores(const T* q, const RowLayout& q_rows, const GroupMatrices<T>& keys,
                      const ScoreTerms<T>& terms, const AttentionSizes& s, int64_t first,
                      int64_t last, T* scores) {
  const int64_t area = s.r * s.n;
#pragma omp parallel for schedule(static) if (spread(last - first, area * s.d))
  for (int64_t g = first; g < last; ++g) {
    T* out = scores + (g - first) * area;
    product(s.r, s.n, s.d, terms.scale, plain(q + q_rows.offset(g, s.M), q_rows.ld),
            factor(keys, g, true), T{0}, out, s.n);
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
                   int64_t first, int64_t last, T* out, const RowLayout& out_rows) {
#pragma omp parallel for schedule(static) if (spread(last - first, s.r * s.n * s.d))
  for (int64_t g = first; g < last; ++g) {
    product(s.r, s.d, s.n, T{1}, plain(rows + (g - first) * s.r * s.n, s.n),
            factor(values, g, false), T{0}, out + out_rows.offset(g, s.M), out_rows.ld);
  }
}

template <typename T>
void attention_backward(const T* q, const RowLayout& q_rows, const GroupMatrices<T>& keys,
                        const GroupMatrices<T>& values, const ScoreTerms<T>& terms,
                        const AttentionSizes& s, const T* rows, const T* grad_out, T* grad_q,
                        const RowLayout& out_rows, T* grad_keys, T* grad_values, T* beta_grads) {
  const int64_t G = s.groups(), area = s.r * s.n;
#pragma omp parallel if (spread(G, area * s.d))
  {
    std::vector<T> grad_scores(static_cast<size_t>(area));  // one group's, in cache
    T* dS = grad_scores.data();
#pragma omp for schedule(static)
    for (int64_t g = 0; g < G; ++g) {
      const T* P = rows + g * area;
      const T* dO = grad_out + out_rows.offset(g, s.M);
      const T* qg = q + q_rows.offset(g, s.M);
      const int64_t ld_out = out_rows.ld, ld_q = q_rows.ld;
      // d rows = d out values^T; through the softmax: dS = P (dP - sum_j P dP).
      product(s.r, s.n, s.d, T{1}, plain(dO, ld_out), factor(values, g, true), T{0}, dS, s.n);
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
              grad_q + out_rows.offset(g, s.M), ld_out);
      // dK = scale dS^T q and dV = P^T dO, or their transposes for keys and values
      // stored node axis last (their gradients then accumulate without a transposed copy).
      T* dK = grad_keys + g * s.n * s.d;
      if (keys.by_column) {
        product(s.d, s.n, s.r, terms.scale, plain(qg, ld_q, true), plain(dS, s.n), T{0}, dK, s.n);
      } else {
        product(s.n, s.d, s.r, terms.scale, plain(dS, s.n, true), plain(qg, ld_q), T{0}, dK, s.d);
      }
      T* dV = grad_values + g * s.n * s.d;
      if (values.by_column) {
        product(s.d, s.n, s.r, T{1}, plain(dO, ld_out, true), plain(P, s.n), T{0}, dV, s.n);
      } else {
        product(s.n, s.d, s.r, T{1}, plain(P, s.n, true), plain(dO, ld_out), T{0}, dV, s.d);
      }
    }
  }
}

#define EIE_ATTENTION_KERNELS(T)                                                                   \
  template void attention_scores<T>(const T*, const RowLayout&, const GroupMatrices<T>&,           \
                                    const ScoreTerms<T>&, const AttentionSizes&, int64_t, int64_t, \
                                    T*);                                                           \
  template void attention_mix<T>(const T*, const GroupMatrices<T>&, const AttentionSizes&,         \
                                 int64_t, int64_t, T*, const RowLayout&);                          \
  template void attention_backward<T>(const T*, const RowLayout&, const GroupMatrices<T>&,         \
                                      const GroupMatrices<T>&, const ScoreTerms<T>&,               \
                                      const AttentionSizes&, const T*, const T*, T*,               \
                                      const RowLayout&, T*, T*, T*);
EIE_ATTENTION_KERNELS(float)
EIE_ATTENTION_KERNELS(double)
#undef EIE_ATTENTION_KERNELS

}  // namespace eie::nn
