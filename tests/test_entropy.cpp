#include <gtest/gtest.h>

#include <cmath>

#include "src/attention/entropy.h"
#include "src/attention/scale_fit.h"
#include "src/attention/scale_policy.h"

namespace eie {
namespace {

// Brute force: q and k_j drawn as full d-vectors, n x d numbers per query.
std::pair<double, double> brute_force(int64_t n, int64_t d, double lambda, int64_t queries) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(777);
  const auto q = torch::randn({queries, 1, d}, gen, torch::kDouble);
  const auto k = torch::randn({queries, n, d}, gen, torch::kDouble);
  const auto h = softmax_entropy(lambda * (q * k).sum(-1));
  return {h.mean().item<double>(), h.std().item<double>() / std::sqrt(double(queries))};
}

TEST(Entropy, AgreesWithBruteForceMonteCarlo) {
  for (const auto& [n, d, lambda] : std::vector<std::tuple<int64_t, int64_t, double>>{
           {100, 16, 0.25}, {800, 16, 0.6}, {240, 32, 0.2}}) {
    const EntropyEstimator estimator(d, n, 4000, 5);
    const auto [reference, reference_se] = brute_force(n, d, lambda, 2000);
    const double estimate = estimator.expected(n, lambda);
    const double se = std::hypot(reference_se, estimator.standard_error(n, lambda));
    EXPECT_LT(std::abs(estimate - reference), 4 * se)
        << "n=" << n << " d=" << d << ": " << estimate << " vs " << reference << " (se " << se
        << ")";
  }
}

TEST(Entropy, ZeroScaleGivesLogNAndEntropyFallsWithScale) {
  const EntropyEstimator estimator(16, 500, 500, 1);
  EXPECT_NEAR(estimator.expected(500, 0.0), std::log(500.0), 1e-9);
  EXPECT_GT(estimator.expected(500, 0.2), estimator.expected(500, 0.4));
  EXPECT_GT(estimator.expected(500, 0.25), estimator.expected(100, 0.25));
}

TEST(Entropy, DifferentiableInLambda) {
  const EntropyEstimator estimator(16, 200, 300, 2);
  auto lambda = torch::tensor(0.3, torch::dtype(torch::kDouble).requires_grad(true));
  const auto h = estimator.expected(200, lambda);
  const double slope = torch::autograd::grad({h}, {lambda})[0].item<double>();
  const double numeric =
      (estimator.expected(200, 0.3 + 1e-5) - estimator.expected(200, 0.3 - 1e-5)) / 2e-5;
  EXPECT_NEAR(slope, numeric, 1e-5 * std::abs(numeric) + 1e-8);
  EXPECT_LT(slope, 0);
  EXPECT_NEAR(estimator.value_and_slope(200, 0.3).second, slope, 1e-9 + 1e-9 * std::abs(slope));
}

TEST(EieExact, MatchesHighSampleReferenceAndKeepsEntropy) {
  // Our own high-sample reference (d = 16, N = 100).
  const auto policy = make_scale_policy("eie-exact");
  const std::vector<std::pair<int64_t, double>> reference{
      {200, 0.402}, {400, 0.517}, {800, 0.618}, {1600, 0.708}};
  for (const auto& [n, lambda] : reference) {
    EXPECT_NEAR(policy->lambda({n, 16, 100}), lambda, 0.01) << "n = " << n;
  }
  EXPECT_NEAR(policy->lambda({100, 16, 100}), 0.25, 1e-6);
}

TEST(EieExact, KeepsEntropyOnAGridUnderIndependentDraws) {
  const auto grid = scale_grid(100, 1600);
  const auto roots = exact_scales(EntropyEstimator(16, 1600, 16384, 5), 100, grid);
  const EntropyEstimator check(16, 1600, 16384, 99);
  const double target = check.expected(100, 0.25);
  for (size_t i = 0; i < grid.size(); ++i) {
    EXPECT_LT(std::abs(check.expected(grid[i], roots[i]) - target), 0.01) << "n = " << grid[i];
  }
}

}  // namespace
}  // namespace eie
