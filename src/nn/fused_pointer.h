#pragma once

// The pointer's log-probabilities as one operation with its own backward, on the CPU,
// where they record gradients (the multi-start training step's decode, the scoring of
// sampled tours): log_softmax(clip tanh(q.k / sqrt(E)) - beta distance, -inf where
// masked), through pointer_kernels.h. The forward gives LibTorch's ops' bits; for the
// backward it keeps what those ops kept (the products' operands, the distances, the tanh
// and the log-probabilities), no intermediate tensor of each step.

#include <torch/torch.h>

namespace eie::nn {

// Whether fused_pointer_log_probs() runs: gradients recorded, queries and keys of one
// floating type on the CPU.
[[nodiscard]] bool fused_pointer_applies(const torch::Tensor& query, const torch::Tensor& keys,
                                         const torch::Tensor& beta);

// pointer_log_probs() of T query rows per instance [B, T, E] over keys [B, E, n]: [B, T, n];
// beta [1] with distances [B, T, n] (undefined: no bias), masked [B, T, n]. Gradients
// flow to the queries, the keys and beta.
[[nodiscard]] torch::Tensor fused_pointer_log_probs(const torch::Tensor& keys,
                                                    const torch::Tensor& query, double clip,
                                                    const torch::Tensor& beta,
                                                    const torch::Tensor& distance,
                                                    const torch::Tensor& masked);

}  // namespace eie::nn
