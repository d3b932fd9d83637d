#include "src/attention/entropy.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace eie {

torch::Tensor softmax_entropy(const torch::Tensor& logits) {
  const auto log_p = torch::log_softmax(logits, -1);
  return -(log_p.exp() * log_p).sum(-1);
}

EntropyEstimator::EntropyEstimator(int64_t head_dim, int64_t max_n, int64_t queries, uint64_t seed)
    : head_dim_(head_dim) {
  if (head_dim < 1 || max_n < 2 || queries < 2) {
    throw std::invalid_argument("entropy estimator: need d >= 1, max n >= 2 and >= 2 queries");
  }
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  // |q|^2 ~ chi^2_d, stratified: query i takes the midpoint quantile of stratum i,
  // read off a large sorted sample. Most of the spread of the per-query entropy
  // comes from |q|, so stratifying it shrinks the estimator's error several-fold.
  const int64_t pool = std::max<int64_t>(64 * queries, 200000);
  const auto sorted =
      std::get<0>(torch::randn({pool, head_dim}, gen, torch::kDouble).square().sum(1).sort());
  const auto picks =
      ((torch::arange(queries, torch::kDouble) + 0.5) * pool / queries).to(torch::kLong);
  const auto norms = sorted.index_select(0, picks).sqrt();
  scores_ = torch::randn({queries, max_n}, gen, torch::kDouble) * norms.unsqueeze(1);
}

torch::Tensor EntropyEstimator::per_query(int64_t n, const torch::Tensor& lambda) const {
  if (n < 1 || n > max_n()) {
    throw std::invalid_argument("entropy estimator: n = " + std::to_string(n) + " outside 1.." +
                                std::to_string(max_n()));
  }
  return softmax_entropy(scores_.slice(1, 0, n) * lambda);
}

torch::Tensor EntropyEstimator::expected(int64_t n, const torch::Tensor& lambda) const {
  return per_query(n, lambda.to(torch::kDouble)).mean();
}

torch::Tensor EntropyEstimator::expected_rows(int64_t n, const torch::Tensor& rows,
                                              const torch::Tensor& lambda) const {
  return softmax_entropy(scores_.slice(1, 0, n).index_select(0, rows) * lambda.to(torch::kDouble))
      .mean();
}

double EntropyEstimator::expected(int64_t n, double lambda) const {
  torch::NoGradGuard no_grad;
  return expected(n, torch::tensor(lambda, torch::kDouble)).item<double>();
}

std::pair<double, double> EntropyEstimator::value_and_slope(int64_t n, double lambda) const {
  torch::NoGradGuard no_grad;
  const auto s = scores_.slice(1, 0, n);
  const auto log_p = torch::log_softmax(s * lambda, -1);
  const auto p = log_p.exp();
  const auto mean = (p * s).sum(-1);
  const auto variance = (p * s * s).sum(-1) - mean * mean;
  const double entropy = (-(p * log_p).sum(-1)).mean().item<double>();
  return {entropy, -lambda * variance.mean().item<double>()};
}

double EntropyEstimator::standard_error(int64_t n, double lambda) const {
  torch::NoGradGuard no_grad;
  const auto h = per_query(n, torch::tensor(lambda, torch::kDouble));
  return h.std().item<double>() / std::sqrt(static_cast<double>(h.numel()));
}

double solve_scale(const EntropyEstimator& estimator, int64_t n, double target) {
  double lo = 0, hi = 100;  // bracket: H decreases from ln n at lambda = 0
  double lambda = 1.0 / std::sqrt(static_cast<double>(estimator.head_dim()));
  for (int iteration = 0; iteration < 100; ++iteration) {
    const auto [h, slope] = estimator.value_and_slope(n, lambda);
    const double gap = h - target;
    if (std::abs(gap) < 1e-10) return lambda;
    (gap > 0 ? lo : hi) = lambda;  // entropy too high: lambda must grow
    double next = slope < 0 ? lambda - gap / slope : -1;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);  // Newton left the bracket: bisect
    if (std::abs(next - lambda) < 1e-12) return next;
    lambda = next;
  }
  if (hi >= 100) throw std::invalid_argument("no scale reaches entropy " + std::to_string(target));
  return lambda;
}

}  // namespace eie
