#pragma once

// The decode step's attention on a GPU in eie's own kernels (src/nn/cuda/, the CUDA
// build): one kernel each for the glimpse, the pointer and the distances from the current
// node, where LibTorch's ops took up to 20 a step. Each function returns an undefined
// tensor where its kernel does not apply (a CPU tensor, gradients recorded, a type other
// than float32 or float64, a glimpse head size other than 8, 16, 32 or 64, or
// util/cuda_kernels.h says they do not run), and the caller computes the same with
// tensor ops.

#include <torch/torch.h>

#include "src/nn/glimpse.h"

namespace eie::nn {

// glimpse() without a probe, for K query rows per instance of `memory` (B instances):
// queries [B K, E], masks and distances [B K, n]; [B K, E].
[[nodiscard]] torch::Tensor glimpse_on_device(const GlimpseMemory& memory,
                                              const torch::Tensor& query,
                                              const torch::Tensor& masked, double scale,
                                              const ScoreBias& bias);

// pointer_log_probs() of K query rows [B K, E] per instance over keys [B, E, n], masks and
// distances [B K, n]: [B K, n].
[[nodiscard]] torch::Tensor pointer_log_probs_on_device(const torch::Tensor& keys,
                                                        const torch::Tensor& query, double clip,
                                                        const torch::Tensor& beta,
                                                        const torch::Tensor& distance,
                                                        const torch::Tensor& masked);

// distances_from() [R, n] for positions [R, n, 2] and current nodes [R] (int64).
[[nodiscard]] torch::Tensor distances_from_on_device(const torch::Tensor& positions,
                                                     const torch::Tensor& current);

}  // namespace eie::nn
