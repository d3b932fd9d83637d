#pragma once

// The decode step's attention on a GPU in eie's own kernels (src/nn/cuda/, the CUDA
// build): one kernel for the glimpse and one for the pointer where LibTorch's ops took
// 15 a step. Each function returns an undefined tensor where its kernel does not apply
// (a CPU tensor, gradients recorded, a type other than float32 or float64, a head size
// other than 8, 16, 32 or 64, a build without CUDA, or EIE_CUDA_KERNELS=0 in the
// environment), and the caller computes the same with tensor ops.

#include <torch/torch.h>

#include "src/nn/glimpse.h"

namespace eie::nn {

// glimpse() without a probe: [B, E].
[[nodiscard]] torch::Tensor glimpse_on_device(const GlimpseMemory& memory,
                                              const torch::Tensor& query,
                                              const torch::Tensor& masked, double scale,
                                              const ScoreBias& bias);

// pointer_log_probs() of one query per instance [B, E] over keys [B, E, n]: [B, n].
[[nodiscard]] torch::Tensor pointer_log_probs_on_device(const torch::Tensor& keys,
                                                        const torch::Tensor& query, double clip,
                                                        const torch::Tensor& beta,
                                                        const torch::Tensor& distance,
                                                        const torch::Tensor& masked);

}  // namespace eie::nn
