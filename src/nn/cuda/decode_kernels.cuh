#pragma once

// The decode step's attention as two kernels: the glimpse (every head of a query row in
// one pass over its instance's keys and values) and the pointer (scores, tanh clip,
// distance bias, mask and log-softmax); in LibTorch's ops they were up to 15 kernels a
// step, and the batched products of one query row each read the keys at a fraction of
// the GPU's bandwidth. And the distances from the current node, five kernels in
// LibTorch's ops. One block per query row and head (glimpse) or per query row (pointer);
// threads stride over the nodes, so that each load of a key row is coalesced. A
// multi-start decode has `group` query rows per instance, reading the instance's keys.
// Device code only, no launches: decode_kernels.cu launches it, and
// tests/test_cuda_kernels_on_host.cpp runs it on host threads (every CUDA thread of a
// block a thread of its own), so that CI checks the kernels' logic without a GPU. The
// includer defines EIE_SHARED_BYTES(name): a block's dynamic shared memory as `name`.

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace eie::nn::cuda::device {

constexpr unsigned kAllLanes = 0xffffffffu;
constexpr int kMaxThreads = 256;

__device__ inline float exponential(float x) { return expf(x); }
__device__ inline double exponential(double x) { return exp(x); }
__device__ inline float logarithm(float x) { return logf(x); }
__device__ inline double logarithm(double x) { return log(x); }
__device__ inline float hyperbolic_tangent(float x) { return tanhf(x); }
__device__ inline double hyperbolic_tangent(double x) { return tanh(x); }
__device__ inline float larger(float a, float b) { return fmaxf(a, b); }
__device__ inline double larger(double a, double b) { return fmax(a, b); }

template <typename T>
__device__ T minus_infinity() {
  return -static_cast<T>(INFINITY);
}

struct Larger {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return larger(a, b);
  }
};
struct Plus {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

// `combine` of `v` over the warp's lanes, in every lane.
template <typename T, typename Combine>
__device__ T warp_reduce(T v, Combine combine) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    v = combine(v, __shfl_xor_sync(kAllLanes, v, offset));
  }
  return v;
}

// `combine` of `v` over the block, in every thread; `slots` holds one value per warp.
template <typename T, typename Combine>
__device__ T block_reduce(T v, T* slots, Combine combine) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  v = warp_reduce(v, combine);
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  T all = slots[0];
  for (int w = 1; w < warps; ++w) all = combine(all, slots[w]);
  __syncthreads();  // the slots are written again by the next reduction
  return all;
}

// Threads of a block over n nodes: whole warps, at most kMaxThreads.
inline int threads_for(int64_t n) {
  const int64_t warps = (n + 31) / 32;
  return static_cast<int>(std::min<int64_t>(kMaxThreads, std::max<int64_t>(1, warps) * 32));
}

// Block r M + m: query row r, head m. Each thread keeps an online softmax over its
// nodes (running maximum, sum and value mix, rescaled when the maximum grows); the
// block then brings them to the common maximum and adds them up.
template <typename T, int D>
__global__ void glimpse_kernel(const T* keys, const T* values, const T* query, const bool* masked,
                               const T* beta, const T* distance, T* out, int64_t group, int64_t M,
                               int64_t n, T scale) {
  EIE_SHARED_BYTES(shared_bytes);
  T* slots = reinterpret_cast<T*>(shared_bytes);  // [warps (D + 1)], then [warps]
  const int64_t rm = blockIdx.x, r = rm / M, m = rm % M, memory = (r / group * M + m) * D * n;
  const T* k = keys + memory;
  const T* v = values + memory;
  const bool* skip = masked + r * n;
  T q[D];
  for (int c = 0; c < D; ++c) q[c] = query[rm * D + c] * scale;  // (q scale).k, as the ops
  const T head_beta = beta ? beta[m] : T(0);
  T top = minus_infinity<T>(), sum = 0, mix[D];
  for (int c = 0; c < D; ++c) mix[c] = 0;
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
    if (skip[j]) continue;
    T score = 0;
    for (int c = 0; c < D; ++c) score += q[c] * k[c * n + j];
    if (beta) score -= head_beta * distance[r * n + j];
    if (score == minus_infinity<T>()) continue;  // no weight, as softmax gives it
    if (score > top) {
      const T shrink = exponential(top - score);
      sum *= shrink;
      for (int c = 0; c < D; ++c) mix[c] *= shrink;
      top = score;
    }
    const T weight = exponential(score - top);  // NaN scores make NaN rows, as softmax does
    sum += weight;
    for (int c = 0; c < D; ++c) mix[c] += weight * v[c * n + j];
  }
  const int warps = blockDim.x >> 5, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T* warp_tops = slots + warps * (D + 1);
  const T block_top = block_reduce(top, warp_tops, Larger{});
  const T shrink = top == minus_infinity<T>() ? T(0) : exponential(top - block_top);
  sum = warp_reduce(sum * shrink, Plus{});
  for (int c = 0; c < D; ++c) mix[c] = warp_reduce(mix[c] * shrink, Plus{});
  if (lane == 0) {
    for (int c = 0; c < D; ++c) slots[warp * (D + 1) + c] = mix[c];
    slots[warp * (D + 1) + D] = sum;
  }
  __syncthreads();
  if (threadIdx.x < D) {
    T total = 0, weights = 0;
    for (int w = 0; w < warps; ++w) {
      total += slots[w * (D + 1) + threadIdx.x];
      weights += slots[w * (D + 1) + D];
    }
    out[rm * D + threadIdx.x] = total / weights;  // every node masked: 0 / 0, as softmax's NaN
  }
}

// Block r: query row r (of instance r / group). The clipped, biased and masked logits go to `out`
// first, then each thread turns its own into log-probabilities once the block has their maximum and
// sum of exponentials.
template <typename T>
__global__ void pointer_kernel(const T* keys, const T* query, const bool* masked, const T* beta,
                               const T* distance, T* out, int64_t group, int64_t E, int64_t n,
                               T divisor, T clip) {
  EIE_SHARED_BYTES(shared_bytes);
  T* q = reinterpret_cast<T*>(shared_bytes);  // [E], then a slot per warp
  T* slots = q + E;
  const int64_t r = blockIdx.x;
  for (int64_t c = threadIdx.x; c < E; c += blockDim.x) q[c] = query[r * E + c];
  __syncthreads();
  const T* k = keys + r / group * E * n;
  T* row = out + r * n;
  T top = minus_infinity<T>();
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
    T score = 0;
    for (int64_t c = 0; c < E; ++c) score += q[c] * k[c * n + j];
    T logit = hyperbolic_tangent(score / divisor) * clip;
    if (beta) logit -= beta[0] * distance[r * n + j];
    if (masked[r * n + j]) logit = minus_infinity<T>();
    row[j] = logit;
    top = larger(top, logit);
  }
  top = block_reduce(top, slots, Larger{});
  T sum = 0;
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) sum += exponential(row[j] - top);
  const T log_sum = logarithm(block_reduce(sum, slots, Plus{}));
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) row[j] = (row[j] - top) - log_sum;
}

__device__ inline float product(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double product(double a, double b) { return __dmul_rn(a, b); }
__device__ inline float total(float a, float b) { return __fadd_rn(a, b); }
__device__ inline double total(double a, double b) { return __dadd_rn(a, b); }
__device__ inline float root(float x) { return sqrtf(x); }
__device__ inline double root(double x) { return sqrt(x); }

// Thread r n + j: node j of row r.
template <typename T>
__global__ void distances_from_kernel(const T* positions, int64_t s0, int64_t s1, int64_t s2,
                                      const int64_t* current, int64_t R, int64_t n, T* out) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= R * n) return;
  const int64_t r = i / n, j = i % n, c = current[r];
  if (c < 0 || c >= n) {
    out[i] = static_cast<T>(NAN);
    return;
  }
  const T* row = positions + r * s0;
  const T dx = row[c * s1] - row[j * s1], dy = row[c * s1 + s2] - row[j * s1 + s2];
  out[i] = root(total(product(dx, dx), product(dy, dy)));
}

}  // namespace eie::nn::cuda::device
