#pragma once

// Launchers of the decode-step kernels (decode_kernels.cu, built by nvcc in the CUDA
// build only). Plain pointers and sizes, no LibTorch or CUDA types, so that nvcc never
// parses LibTorch's headers: device_kernels.cpp checks the tensors and calls these.
// Each returns the CUDA error of its launch (0: launched), queued on `stream` (a
// cudaStream_t: util/cuda_kernels.h), which a CUDA graph being captured there records.

#include <cstdint>

namespace eie::nn::cuda {

// The heads' glimpse of `group` queries per instance, as nn::glimpse() computes it for
// one: per query row r (of instance r / group) and head m, softmax over the nodes j that
// are not masked of scale * q[r, m].keys[r / group, m, :, j] - beta[m] distance[r, j],
// mixing values[r / group, m, :, j]. keys, values [B, M, d, n]; query, out [B group, M d];
// masked [B group, n] (bool); beta [M] and distance [B group, n] both null without a
// bias. d is 8, 16, 32 or 64 (glimpse_head_dim_fits).
struct GlimpseArgs {
  const void* keys;
  const void* values;
  const void* query;
  const bool* masked;
  const void* beta;
  const void* distance;
  void* out;
  int64_t B, group, M, d, n;
  double scale;
};
[[nodiscard]] bool glimpse_head_dim_fits(int64_t d);
[[nodiscard]] int glimpse_float(const GlimpseArgs& args, void* stream);
[[nodiscard]] int glimpse_double(const GlimpseArgs& args, void* stream);

// Pointer log-probabilities of `group` queries per instance, as nn::pointer_log_probs():
// per query row r, log-softmax over j of clip tanh(q[r].keys[r / group, :, j] / sqrt(E))
// - beta[0] distance[r, j], -inf where masked. keys [B, E, n]; query [B group, E];
// masked [B group, n] (bool); beta [1] and distance [B group, n] both null without a
// bias; out [B group, n].
struct PointerArgs {
  const void* keys;
  const void* query;
  const bool* masked;
  const void* beta;
  const void* distance;
  void* out;
  int64_t B, group, E, n;
  double clip;
};
[[nodiscard]] int pointer_float(const PointerArgs& args, void* stream);
[[nodiscard]] int pointer_double(const PointerArgs& args, void* stream);

// nn::distances_from(): out[r, j] = |positions[r, j] - positions[r, current[r]]|, each
// product and sum rounded as the CPU's loop rounds them (no fused multiply-add), NaN for
// a current node out of range. positions [R, n, 2] at `stride` (elements); current [R].
struct DistancesArgs {
  const void* positions;
  int64_t stride[3];
  const int64_t* current;
  void* out;
  int64_t R, n;
};
[[nodiscard]] int distances_from_float(const DistancesArgs& args, void* stream);
[[nodiscard]] int distances_from_double(const DistancesArgs& args, void* stream);

}  // namespace eie::nn::cuda
