#pragma once

// Pure C++ kernels behind the pointer's log-probabilities with gradients on the CPU
// (fused_pointer.h; no LibTorch): the q.k products of every instance through the system
// BLAS, one instance a thread, and the elementwise steps around LibTorch's vectorised
// tanh and log-softmax, each one pass. LibTorch's ops took a tensor and a node of the
// autograd graph per step, and its batched product a dispatch per instance.

#include <cstdint>

namespace eie::nn {

// B instances of T query rows over n nodes, queries and keys of width E.
struct PointerSizes {
  int64_t B = 0, T = 0, n = 0, E = 0;
};

// scores[b] [T, n] = query[b] [T, E] keys[b] [E, n] (all row-major).
template <typename T>
void pointer_products(const T* query, const T* keys, const PointerSizes& sizes, T* scores);

// logits = clip squashed - beta distance (no bias where `distance` is null), -inf where
// `masked`: `count` elements, in the order of operations of LibTorch's ops before.
template <typename T>
void pointer_logits(const T* squashed, T clip, T beta, const T* distance, const bool* masked,
                    int64_t count, T* logits);

// In place, the gradient of the logits becomes that of the squashed scores' argument
// (grad clip (1 - squashed^2)); beta_parts[b] = d loss / d beta of instance b (with a
// distance; the instances' `per_instance` elements each).
template <typename T>
void pointer_score_grads(T* grad, const T* squashed, T clip, const T* distance, int64_t B,
                         int64_t per_instance, T* beta_parts);

// The products' gradients from that of the scores [B, T, n], times `scale`:
// grad_query[b] = scale grad[b] keys[b]^T, grad_keys[b] = scale query[b]^T grad[b].
template <typename T>
void pointer_product_grads(const T* query, const T* keys, const T* grad_scores,
                           const PointerSizes& sizes, T scale, T* grad_query, T* grad_keys);

}  // namespace eie::nn
