#include "src/nn/head_kernels.h"

#include <array>

namespace eie::nn {

namespace {
// Partial sums per dot product: independent accumulators the compiler vectorises.
constexpr int64_t kLanes = 8;
}  // namespace

template <typename T>
void query_key_products(const T* keys, const T* query, int64_t G, int64_t d, int64_t n, T* out) {
#pragma omp parallel for schedule(static) if (G * d * n >= kParallelWork)
  for (int64_t g = 0; g < G; ++g) {
    T* row = out + g * n;
    const T* key = keys + g * d * n;
    for (int64_t j = 0; j < n; ++j) row[j] = 0;
    for (int64_t c = 0; c < d; ++c) {
      const T weight = query[g * d + c];
      const T* along = key + c * n;
      for (int64_t j = 0; j < n; ++j) row[j] += weight * along[j];
    }
  }
}

template <typename T>
void weighted_value_sums(const T* values, const T* weights, int64_t G, int64_t d, int64_t n,
                         T* out) {
#pragma omp parallel for schedule(static) if (G * d * n >= kParallelWork)
  for (int64_t g = 0; g < G; ++g) {
    const T* weight = weights + g * n;
    for (int64_t c = 0; c < d; ++c) {
      const T* value = values + (g * d + c) * n;
      std::array<T, kLanes> lanes{};
      int64_t j = 0;
      for (; j + kLanes <= n; j += kLanes) {
        for (int64_t t = 0; t < kLanes; ++t) lanes[t] += value[j + t] * weight[j + t];
      }
      T sum = 0;
      for (; j < n; ++j) sum += value[j] * weight[j];
      for (const T lane : lanes) sum += lane;
      out[g * d + c] = sum;
    }
  }
}

template void query_key_products(const float*, const float*, int64_t, int64_t, int64_t, float*);
template void query_key_products(const double*, const double*, int64_t, int64_t, int64_t, double*);
template void weighted_value_sums(const float*, const float*, int64_t, int64_t, int64_t, float*);
template void weighted_value_sums(const double*, const double*, int64_t, int64_t, int64_t, double*);

}  // namespace eie::nn
