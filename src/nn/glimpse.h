#pragma once

#include <torch/torch.h>

#include "src/nn/distance_bias.h"

namespace eie::nn {

class EntropyProbe;

// Keys and values of a decoder glimpse, precomputed once per encoded batch with
// the node axis last: the per-step reductions then run over a middle axis,
// vectorised along the nodes, and softmax is contiguous.
struct GlimpseMemory {
  torch::Tensor keys;    // [B, M, d, n]
  torch::Tensor values;  // [B, M, d, n]
};

// From projected keys and values [B, n, E] split into `heads` heads.
[[nodiscard]] GlimpseMemory glimpse_memory(const torch::Tensor& keys, const torch::Tensor& values,
                                           int64_t heads);

// Multi-head attention of one query per instance [B, E] over the nodes that are
// not `masked` [B, n], with scores scale * q.k (less the bias, distances [B, n], when it
// applies); returns the heads concatenated [B, E].
// `probe`, when given, records the entropy of the attention rows. On a GPU without a
// probe, one kernel (device_kernels.h).
[[nodiscard]] torch::Tensor glimpse(const GlimpseMemory& memory, const torch::Tensor& query,
                                    const torch::Tensor& masked, double scale,
                                    EntropyProbe* probe = nullptr, const ScoreBias& bias = {});

// glimpse() for T queries per instance [B, T, E] at once, each with its own mask
// [B, T, n] (and distances [B, T, n]): [B, T, E]. Scores decoded solutions in one
// pass for training, and decodes K rows of an instance together (multi-start); on a GPU
// without gradients, one kernel (device_kernels.h).
[[nodiscard]] torch::Tensor glimpse_steps(const GlimpseMemory& memory, const torch::Tensor& queries,
                                          const torch::Tensor& masked, double scale,
                                          const ScoreBias& bias = {});

// `scores` with -inf where `masked` (broadcast to them), filled in place. Where the
// scores record gradients the mask is added instead: the backward of an addition
// passes the gradient on, where masked_fill's makes a masked copy of it (results/speed.md,
// "Masks in training"). Pass a fresh tensor.
[[nodiscard]] torch::Tensor masked_scores(torch::Tensor scores, const torch::Tensor& masked);

// Pointer log-probabilities from q.k scores [..., n] of queries of size `dim`: the
// log-softmax of clip tanh(scores / sqrt(dim)) (never rescaled) less beta distance
// (outside the clip, so that it can outweigh it; beta [1] and distances [..., n], no bias
// where either is undefined), -inf where `masked`.
[[nodiscard]] torch::Tensor pointer_log_probs_of_scores(const torch::Tensor& scores, int64_t dim,
                                                        double clip, const torch::Tensor& beta,
                                                        const torch::Tensor& distance,
                                                        const torch::Tensor& masked);

// pointer_log_probs_of_scores() for one query per instance [B, E] over keys [B, E, n]:
// [B, n]; or for T per instance [B, T, E] (masks and distances [B, T, n]): [B, T, n]. On
// a GPU without gradients, one kernel (device_kernels.h); on the CPU with them, one
// operation (fused_pointer.h).
[[nodiscard]] torch::Tensor pointer_log_probs(const torch::Tensor& keys, const torch::Tensor& query,
                                              double clip, const torch::Tensor& beta,
                                              const torch::Tensor& distance,
                                              const torch::Tensor& masked);

}  // namespace eie::nn
