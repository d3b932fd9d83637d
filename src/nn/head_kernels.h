#pragma once

// Pure C++ kernels behind a decode step's glimpse without gradients (no LibTorch):
// one query per group of keys, as the one-row-per-instance decode runs it (greedy
// solving, the rollout baseline, the rollout trainer's sampled decode). Broadcast-multiply-and-sum
// wrote a [G, d, n] temporary and read it again; batched products run G tiny matrix products. These
// read the keys once (results/speed.md, "Decode step kernels").

#include <cstdint>

namespace eie::nn {

// Below this much work (multiply-adds) a kernel call stays on one thread.
inline constexpr int64_t kParallelWork = int64_t{1} << 16;

// out[g, j] = sum_c query[g, c] * keys[g, c, j]: keys [G, d, n] (node axis last),
// query [G, d], out [G, n]. OpenMP over groups.
template <typename T>
void query_key_products(const T* keys, const T* query, int64_t G, int64_t d, int64_t n, T* out);

// out[g, c] = sum_j values[g, c, j] * weights[g, j]: values [G, d, n], weights
// [G, n], out [G, d]. OpenMP over groups.
template <typename T>
void weighted_value_sums(const T* values, const T* weights, int64_t G, int64_t d, int64_t n,
                         T* out);

}  // namespace eie::nn
