#pragma once

// Softmax attention as one operation with its own backward, on the CPU:
//   out = softmax(scale q k^T - beta[m] distance, -inf where masked) v
// for every instance and head, through attention_kernels.h. Without gradients it holds the
// scores of a bounded number of heads at a time; with them, the softmax rows (what
// LibTorch's ops keep too) and nothing else.

#include <torch/torch.h>

#include "src/nn/distance_bias.h"

namespace eie::nn {

// Whether fused_attention() runs on these queries and keys (both float or both double, on
// the CPU).
[[nodiscard]] bool fused_attention_applies(const torch::Tensor& q, const torch::Tensor& keys);

// Attention of queries q [B, M, r, d] over keys and values [B, M, n, d] (any strides;
// the glimpse memory's transposed [B, M, d, n] storage and queries viewed as heads of a
// projection's rows are read as they are): [B, M, r, d], its heads side by side in memory
// (its transpose(1, 2) is contiguous: the heads concatenate without a copy).
// `bias` (beta [M], distance [B, r, n]) and `masked` [B, r, n] are optional; gradients
// flow to q, keys, values and beta.
[[nodiscard]] torch::Tensor fused_attention(const torch::Tensor& q, const torch::Tensor& keys,
                                            const torch::Tensor& values, double scale,
                                            const ScoreBias& bias = {},
                                            const torch::Tensor& masked = {});

}  // namespace eie::nn
