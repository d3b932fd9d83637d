#pragma once

// Pure C++ kernels of softmax attention on the CPU (no LibTorch): the products of
// every (instance, head) through the system BLAS, one matrix at a time, on matrices
// that stay in cache. LibTorch's batched product loops over the matrices with a
// tensor view and a dispatch each, and its backward makes copies of the transposed
// operands (results/speed.md, "Fused attention"). Softmax itself stays LibTorch's
// (vectorised exp) between attention_scores() and attention_mix().

#include <cstdint>

namespace eie::nn {

// A [rows, cols] matrix of every group g (instance and head, g = b M + m), at
// data + g * group_stride: element (i, j) at [i * ld + j], or at [j * ld + i] when
// `by_column` (keys and values of the glimpse memory are stored node axis last).
template <typename T>
struct GroupMatrices {
  const T* data = nullptr;   // group 0's matrix
  int64_t ld = 0;            // stride between rows (columns when by_column)
  bool by_column = false;    // stored transposed
  int64_t group_stride = 0;  // elements from one group's matrix to the next
};

// Sizes of one attention call: B instances x M heads, r queries over n keys of width d.
struct AttentionSizes {
  int64_t B = 0;  // instances
  int64_t M = 0;  // heads
  int64_t r = 0;  // queries per instance and head
  int64_t n = 0;  // keys (nodes)
  int64_t d = 0;  // head width
  [[nodiscard]] int64_t groups() const { return B * M; }
};

// Where group g's [r, d] rows (g = b M + m) lie in a [B, M, r, d] tensor of queries or
// outputs: at b * instance + m * head, rows ld apart, elements contiguous. Packed:
// {M r d, r d, d}; heads side by side ([B, r, M, d], as a projection's output viewed as
// heads, and as the heads are concatenated after): {r M d, d, M d}.
struct RowLayout {
  int64_t instance = 0;
  int64_t head = 0;
  int64_t ld = 0;
  [[nodiscard]] int64_t offset(int64_t g, int64_t M) const {
    return (g / M) * instance + (g % M) * head;
  }
};

// What enters the scores besides q.k: scores = scale q.k - beta[m] distance[b] at -inf
// where masked[b] (instances share distances and masks across heads).
template <typename T>
struct ScoreTerms {
  T scale = 1;
  const T* beta = nullptr;       // [M], or none
  const T* distance = nullptr;   // [B, r, n] (with beta)
  const bool* masked = nullptr;  // [B, r, n], or none
};

// scores[g - first] [r, n] of the groups [first, last): queries q laid out as `q_rows`,
// keys as `keys` (logically [n, d]).
template <typename T>
void attention_scores(const T* q, const RowLayout& q_rows, const GroupMatrices<T>& keys,
                      const ScoreTerms<T>& terms, const AttentionSizes& sizes, int64_t first,
                      int64_t last, T* scores);

// out's group g [r, d] = rows[g - first] [r, n] times values (logically [n, d]) of the
// groups [first, last); out laid out as `out_rows`.
template <typename T>
void attention_mix(const T* rows, const GroupMatrices<T>& values, const AttentionSizes& sizes,
                   int64_t first, int64_t last, T* out, const RowLayout& out_rows);

// The backward of out = softmax(scores) values: from the softmax rows [G, r, n] and the
// gradient of out, the gradients of q, of keys and values [G, n, d] (laid out as they are:
// [G, d, n] when by_column) and, when terms.beta is given, beta_grads[g] = d loss / d
// beta[m] of group g's part (sum them over instances). q as `q_rows`; grad_out and grad_q
// as `out_rows`.
template <typename T>
void attention_backward(const T* q, const RowLayout& q_rows, const GroupMatrices<T>& keys,
                        const GroupMatrices<T>& values, const ScoreTerms<T>& terms,
                        const AttentionSizes& sizes, const T* rows, const T* grad_out, T* grad_q,
                        const RowLayout& out_rows, T* grad_keys, T* grad_values, T* beta_grads);

}  // namespace eie::nn
