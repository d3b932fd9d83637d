// The decode step's glimpse: without gradients it runs on head_kernels.h; with them
// on LibTorch's ops. Both must give the same attention.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <limits>
#include <utility>

#include "src/nn/glimpse.h"
#include "src/nn/head_kernels.h"

namespace eie::nn {
namespace {

struct GlimpseCase {
  GlimpseMemory memory;
  torch::Tensor query, masked;
  ScoreBias bias;
};

// B instances of n nodes, M heads of d; about a third of the nodes masked (never all).
GlimpseCase random_case(int64_t B, int64_t n, int64_t M, int64_t d, torch::Dtype dtype) {
  const auto options = torch::TensorOptions().dtype(dtype);
  auto masked = torch::rand({B, n}) < 0.3;
  masked.select(1, 0).fill_(false);
  return {
      glimpse_memory(torch::randn({B, n, M * d}, options), torch::randn({B, n, M * d}, options), M),
      torch::randn({B, M * d}, options), masked,
      ScoreBias{torch::rand({M}, options) * 5, torch::rand({B, n}, options)}};
}

// The kernels themselves against einsum (the test below cannot tell whether they ran).
TEST(Glimpse, KernelsAreTheProductsTheyName) {
  torch::manual_seed(5);
  const int64_t G = 6, d = 5;
  for (const int64_t n : {1, 8, 19}) {
    const auto keys = torch::randn({G, d, n}, torch::kDouble);
    const auto query = torch::randn({G, d}, torch::kDouble);
    const auto weights = torch::rand({G, n}, torch::kDouble);
    auto products = torch::empty({G, n}, torch::kDouble),
         sums = torch::empty({G, d}, torch::kDouble);
    query_key_products(keys.data_ptr<double>(), query.data_ptr<double>(), G, d, n,
                       products.data_ptr<double>());
    weighted_value_sums(keys.data_ptr<double>(), weights.data_ptr<double>(), G, d, n,
                        sums.data_ptr<double>());
    EXPECT_TRUE(
        torch::allclose(products, torch::einsum("gc,gcj->gj", {query, keys}), 1e-12, 1e-12));
    EXPECT_TRUE(torch::allclose(sums, torch::einsum("gcj,gj->gc", {keys, weights}), 1e-12, 1e-12));
  }
}

// Added where gradients are recorded, filled in otherwise: the same scores and the same
// gradients as masked_fill.
TEST(Glimpse, MaskedScoresAreMaskedFillWithItsGradients) {
  torch::manual_seed(6);
  const auto raw = torch::randn({3, 2, 7}, torch::kDouble);
  auto masked = torch::rand({3, 1, 7}) < 0.4;
  masked.select(2, 0).fill_(false);
  const auto upstream = torch::randn({3, 2, 7}, torch::kDouble);
  const auto gradient_of = [&](const std::function<torch::Tensor(const torch::Tensor&)>& mask) {
    const auto x = raw.clone().requires_grad_(true);
    const auto out = torch::softmax(mask(x * 2), -1);
    (out * upstream).sum().backward();
    return std::make_pair(out.detach(), x.grad());
  };
  const double minus_inf = -std::numeric_limits<double>::infinity();
  const auto [filled, filled_grad] =
      gradient_of([&](const torch::Tensor& s) { return s.masked_fill(masked, minus_inf); });
  const auto [added, added_grad] =
      gradient_of([&](const torch::Tensor& s) { return masked_scores(s, masked); });
  EXPECT_TRUE(torch::allclose(added, filled, 1e-12, 1e-12));
  EXPECT_TRUE(torch::allclose(added_grad, filled_grad, 1e-12, 1e-12));
  const torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(masked_scores(raw.clone(), masked), raw.masked_fill(masked, minus_inf)));
}

TEST(Glimpse, KernelsWithoutGradientsMatchTheOpsThatRecordThem) {
  torch::manual_seed(3);
  // n = 13: a remainder after the kernels' lanes; 600: above the batched-product threshold.
  for (const int64_t n : {1, 13, 100, 600}) {
    for (const auto dtype : {torch::kFloat, torch::kDouble}) {
      const auto c = random_case(5, n, 4, 8, dtype);
      for (const bool biased : {false, true}) {
        const auto bias = biased ? c.bias : ScoreBias{};
        torch::Tensor with_ops, with_kernels;
        {
          const torch::AutoGradMode recorded(true);
          with_ops = glimpse(c.memory, c.query, c.masked, 0.25, nullptr, bias);
        }
        {
          const torch::NoGradGuard no_grad;
          with_kernels = glimpse(c.memory, c.query, c.masked, 0.25, nullptr, bias);
        }
        const double tolerance = dtype == torch::kFloat ? 1e-5 : 1e-12;
        EXPECT_TRUE(torch::allclose(with_kernels, with_ops, tolerance, tolerance))
            << "n " << n << " dtype " << dtype << " biased " << biased << ": max difference "
            << (with_kernels - with_ops).abs().max().item<double>();
      }
    }
  }
}

// A head that attends to one node only returns that node's value.
TEST(Glimpse, OneUnmaskedNodeGivesItsValue) {
  torch::manual_seed(4);
  const auto c = random_case(3, 20, 2, 8, torch::kDouble);
  auto masked = torch::ones({3, 20}, torch::kBool);
  masked.select(1, 7).fill_(false);
  const torch::NoGradGuard no_grad;
  const auto out = glimpse(c.memory, c.query, masked, 0.25);
  const auto value = c.memory.values.select(3, 7).reshape({3, 16});  // [B, M, d] at node 7
  EXPECT_TRUE(torch::allclose(out, value, 1e-12, 1e-12));
}

}  // namespace
}  // namespace eie::nn
