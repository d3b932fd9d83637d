#pragma once

#include <torch/torch.h>

#include "src/nn/distance_bias.h"

namespace eie::nn {

class EntropyProbe;

// The k nearest nodes of every node (itself first), by Euclidean distance of
// `positions` [B, n, 2]: [B, n, k] int64, nearest first; permuting the nodes
// permutes the answer, except where exact distance ties (broken by index) meet
// the k-th place. A grid search: O(n k log k) time and
// O(n k) memory for spread-out points.
[[nodiscard]] torch::Tensor nearest_nodes(const torch::Tensor& positions, int64_t k);

// The same k nearest nodes by sorting every row of pairwise distances: O(n^2 log n)
// work, what nearest_nodes() does off the CPU (where it can run inside a CUDA graph).
[[nodiscard]] torch::Tensor nearest_nodes_by_sorting(const torch::Tensor& positions, int64_t k);

// Windowed multi-head attention: query row i of every head attends only to the
// nodes neighbours[b, i, :]. q, k, v [B, M, n, d], neighbours [B, n, K];
// returns [B, M, n, d]. Time and memory O(n K) per head instead of O(n^2).
// `probe`, when given, records the entropy of the windowed rows; `bias`, when it
// applies, holds the distances [B, n, K] to the neighbours. Without gradients
// (inference) a fused kernel runs; with them, tensor operations autograd follows.
[[nodiscard]] torch::Tensor windowed_attention(const torch::Tensor& q, const torch::Tensor& k,
                                               const torch::Tensor& v,
                                               const torch::Tensor& neighbours, double scale,
                                               EntropyProbe* probe = nullptr,
                                               const ScoreBias& bias = {});

}  // namespace eie::nn
