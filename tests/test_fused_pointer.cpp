// The fused pointer (log-probabilities as one operation with its own backward, on BLAS
// kernels, where they record gradients on the CPU) against the LibTorch ops it replaces
// (pointer_log_probs_of_scores of a batched product): the same log-probabilities and the
// same gradients.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "src/nn/fused_pointer.h"
#include "src/nn/glimpse.h"

namespace eie::nn {
namespace {

struct PointerCase {
  torch::Tensor keys, query;      // [B, E, n], [B, T, E]
  torch::Tensor beta, distance;   // [1], [B, T, n]
  torch::Tensor masked, actions;  // [B, T, n] (never a whole row), [B, T, 1] feasible
};

PointerCase random_case(int64_t B, int64_t T, int64_t n, int64_t E, torch::Dtype dtype) {
  const auto options = torch::TensorOptions().dtype(dtype);
  auto masked = torch::rand({B, T, n}) < 0.4;
  const auto actions = torch::randint(n, {B, T, 1});
  masked.scatter_(2, actions, false);
  return {torch::randn({B, E, n}, options),
          torch::randn({B, T, E}, options) * 3,
          torch::full({1}, 8.0, options),
          torch::rand({B, T, n}, options),
          masked,
          actions};
}

struct Results {
  torch::Tensor log_probs, keys, query, beta;
};

// The log-probabilities and the gradients of the chosen actions' weighted log-likelihood
// (what REINFORCE differentiates), the query as [B, T, E] or, with `rows`, one row [B, E].
Results run(const PointerCase& c, bool biased, bool rows, bool fused) {
  auto keys = c.keys.clone().requires_grad_(), query = c.query.clone().requires_grad_();
  auto beta = c.beta.clone().requires_grad_();
  const auto distance = biased ? c.distance : torch::Tensor();
  const auto beta_used = biased ? beta : torch::Tensor();
  torch::Tensor log_probs;
  if (!fused) {
    log_probs = pointer_log_probs_of_scores(torch::matmul(query, keys), keys.size(1), 10.0,
                                            beta_used, distance, c.masked);
  } else if (rows) {  // through pointer_log_probs' one-row path
    const auto one = [](const torch::Tensor& t) { return t.defined() ? t.squeeze(1) : t; };
    log_probs = pointer_log_probs(keys, query.squeeze(1), 10.0, beta_used, one(distance),
                                  c.masked.squeeze(1))
                    .unsqueeze(1);
  } else {
    EXPECT_TRUE(fused_pointer_applies(query, keys, beta_used));
    log_probs = pointer_log_probs(keys, query, 10.0, beta_used, distance, c.masked);
  }
  torch::manual_seed(5);
  const auto chosen = log_probs.gather(2, c.actions);
  (chosen * torch::randn_like(chosen)).sum().backward();
  return {log_probs.detach(), keys.grad(), query.grad(),
          biased ? beta.grad() : torch::zeros({1}, c.beta.options())};
}

void expect_same(const Results& fused, const Results& ops, double tolerance, const char* what) {
  EXPECT_TRUE(torch::equal(fused.log_probs.isinf(), ops.log_probs.isinf())) << what;
  const auto finite = ops.log_probs.isfinite();
  EXPECT_TRUE(torch::allclose(fused.log_probs.masked_select(finite),
                              ops.log_probs.masked_select(finite), tolerance, tolerance))
      << what;
  EXPECT_TRUE(torch::allclose(fused.keys, ops.keys, tolerance, tolerance)) << what;
  EXPECT_TRUE(torch::allclose(fused.query, ops.query, tolerance, tolerance)) << what;
  EXPECT_TRUE(torch::allclose(fused.beta, ops.beta, tolerance, tolerance)) << what;
}

TEST(FusedPointer, GivesTheOpsLogProbabilitiesAndGradients) {
  torch::manual_seed(3);
  for (const auto& [T, n] : {std::pair<int64_t, int64_t>{7, 20}, {1, 33}, {100, 100}}) {
    const auto c = random_case(4, T, n, 16, torch::kDouble);
    for (const bool biased : {false, true}) {
      expect_same(run(c, biased, false, true), run(c, biased, false, false), 1e-10,
                  biased ? "bias" : "no bias");
      if (T == 1) {
        expect_same(run(c, biased, true, true), run(c, biased, false, false), 1e-10, "one row");
      }
    }
  }
}

// In float32 the forward gives the ops' bits (the same products, then LibTorch's own
// division, tanh and log-softmax between the same elementwise steps): training decodes
// the samples it would have decoded; the gradients are within float rounding.
TEST(FusedPointer, FloatLogProbabilitiesAreTheOpsBits) {
  torch::manual_seed(4);
  const auto c = random_case(8, 100, 100, 128, torch::kFloat);
  const auto fused = run(c, true, false, true), ops = run(c, true, false, false);
  EXPECT_TRUE(torch::equal(fused.log_probs, ops.log_probs));
  EXPECT_TRUE(torch::allclose(fused.query, ops.query, 1e-4, 1e-5));
  EXPECT_TRUE(torch::allclose(fused.keys, ops.keys, 1e-4, 1e-5));
  EXPECT_TRUE(torch::allclose(fused.beta, ops.beta, 1e-4, 1e-4));
}

TEST(FusedPointer, OnlyWhereGradientsAreRecorded) {
  const auto c = random_case(2, 3, 5, 4, torch::kFloat);
  EXPECT_FALSE(fused_pointer_applies(c.query, c.keys, c.beta));  // nothing requires them
  const auto query = c.query.clone().requires_grad_();
  EXPECT_TRUE(fused_pointer_applies(query, c.keys, c.beta));
  torch::NoGradGuard no_grad;
  EXPECT_FALSE(fused_pointer_applies(query, c.keys, c.beta));
}

}  // namespace
}  // namespace eie::nn
