#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace eie {

// Expected attention-row entropy H(n, lambda) under the EIE assumptions (q, k
// i.i.d. N(0, I_d)), by Monte Carlo. Given q, the scores q.k_j are i.i.d.
// N(0, |q|^2) with |q|^2 ~ chi^2_d, so one sampled query needs n scalars, not
// n x d numbers. All sizes share one set of draws (common random numbers): the
// estimate is smooth and monotone in lambda, and differences between sizes and
// scales are not drowned in sampling noise.
class EntropyEstimator {
 public:
  // `queries` sampled queries, scores for up to `max_n` keys each.
  EntropyEstimator(int64_t head_dim, int64_t max_n, int64_t queries, uint64_t seed);

  // Differentiable in lambda (a scalar tensor); returns a scalar tensor.
  [[nodiscard]] torch::Tensor expected(int64_t n, const torch::Tensor& lambda) const;
  [[nodiscard]] double expected(int64_t n, double lambda) const;
  // H(n, lambda) and dH/dlambda = -lambda * E[Var_p(score)] in one pass.
  [[nodiscard]] std::pair<double, double> value_and_slope(int64_t n, double lambda) const;
  // Standard error of expected(n, lambda) as if the queries were independent
  // (conservative: the stratified estimator is more precise than this).
  [[nodiscard]] double standard_error(int64_t n, double lambda) const;

  // The mean over the sampled queries `rows` [k] only: a minibatch of the draws.
  [[nodiscard]] torch::Tensor expected_rows(int64_t n, const torch::Tensor& rows,
                                            const torch::Tensor& lambda) const;

  [[nodiscard]] int64_t head_dim() const { return head_dim_; }
  [[nodiscard]] int64_t queries() const { return scores_.size(0); }
  [[nodiscard]] int64_t max_n() const { return scores_.size(1); }

 private:
  // Per-query entropies [S] at scale lambda over the first n keys.
  [[nodiscard]] torch::Tensor per_query(int64_t n, const torch::Tensor& lambda) const;

  int64_t head_dim_;      // d
  torch::Tensor scores_;  // [S, max_n] float64: |q| * z_j, z_j ~ N(0, 1)
};

// Entropy of softmax rows: logits [..., n] -> [...].
[[nodiscard]] torch::Tensor softmax_entropy(const torch::Tensor& logits);

// lambda with expected(n, lambda) == target, by safeguarded Newton iterations
// (the entropy decreases monotonically in lambda); throws if none in (0, 100].
[[nodiscard]] double solve_scale(const EntropyEstimator& estimator, int64_t n, double target);

}  // namespace eie
