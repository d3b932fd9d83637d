#pragma once

// Launchers of the decode-step kernels (decode_kernels.cu, built by nvcc in the CUDA
// build only). Plain pointers and sizes, no LibTorch or CUDA types, so that nvcc never
// parses LibTorch's headers: device_kernels.cpp checks the tensors and calls these.
// Each returns the CUDA error of its launch (0: launched), queued on `stream` (a
// cudaStream_t: util/cuda_kernels.h), which a CUDA graph being captured there records.

#include <cstdint>

namespace eie::nn::cuda {

// The heads' glimpse of one query per instance, as nn::glimpse() computes it: per
// instance b and head m, softmax over the nodes j that are not masked of
// scale * q[b, m].keys[b, m, :, j] - beta[m] distance[b, j], mixing values[b, m, :, j].
// keys, values [B, M, d, n]; query, out [B, M d]; masked [B, n] (bool); beta [M] and
// distance [B, n] both null without a bias. d is 8, 16, 32 or 64 (glimpse_head_dim_fits).
struct GlimpseArgs {
  const void* keys;
  const void* values;
  const void* query;
  const bool* masked;
  const void* beta;
  const void* distance;
  void* out;
  int64_t B, M, d, n;
  double scale;
};
[[nodiscard]] bool glimpse_head_dim_fits(int64_t d);
[[nodiscard]] int glimpse_float(const GlimpseArgs& args, void* stream);
[[nodiscard]] int glimpse_double(const GlimpseArgs& args, void* stream);

// Pointer log-probabilities of one query per instance, as nn::pointer_log_probs():
// log-softmax over j of clip tanh(q[b].keys[b, :, j] / sqrt(E)) - beta[0] distance[b, j],
// -inf where masked. keys [B, E, n]; query [B, E]; masked [B, n] (bool); beta [1] and
// distance [B, n] both null without a bias; out [B, n].
struct PointerArgs {
  const void* keys;
  const void* query;
  const bool* masked;
  const void* beta;
  const void* distance;
  void* out;
  int64_t B, E, n;
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
