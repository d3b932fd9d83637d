// pick_rows() (rows of a per-instance table, with its own backward) against
// LibTorch's gather: the same rows and the same gradient, rows picked twice included.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <array>

#include "src/nn/pick_rows.h"

namespace eie::nn {
namespace {

TEST(PickRows, MatchesGatherAndItsGradient) {
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    const auto options = torch::TensorOptions().dtype(dtype);
    // Large enough for the kernels' threads: 64 x 100 rows of 128.
    for (const auto& [B, n, T, E] : {std::array<int64_t, 4>{3, 5, 7, 4}, {64, 100, 100, 128}}) {
      const auto table = torch::randn({B, n, E}, options).requires_grad_(true);
      const auto index = torch::randint(n, {B, T}, torch::kLong);
      const auto weights = torch::randn({B, T, E}, options);
      const auto out = pick_rows(table, index);
      const auto expected = table.gather(1, index.unsqueeze(2).expand({B, T, E}));
      EXPECT_TRUE(torch::equal(out, expected)) << dtype << " B " << B;
      const auto grad = torch::autograd::grad({(out * weights).sum()}, {table})[0];
      const auto grad_expected = torch::autograd::grad({(expected * weights).sum()}, {table})[0];
      // The rows of a target are added in the order of t, as scatter_add adds them.
      EXPECT_TRUE(torch::equal(grad, grad_expected)) << dtype << " B " << B;
    }
  }
}

TEST(PickRows, TakesStridedOperandsNoStepsAndRefusesIndicesOutOfRange) {
  const auto table = torch::randn({2, 3, 4}).transpose(1, 2);      // [2, 4, 3], not contiguous
  const auto nodes = torch::tensor({{0, 3}, {2, 1}, {1, 1}}).t();  // [2, 3], not contiguous
  EXPECT_TRUE(
      torch::equal(pick_rows(table, nodes), table.gather(1, nodes.unsqueeze(2).expand({2, 3, 3}))));
  EXPECT_EQ(pick_rows(table, torch::empty({2, 0}, torch::kLong)).sizes(),
            torch::IntArrayRef({2, 0, 3}));
  EXPECT_THROW((void)pick_rows(table, torch::tensor({{0, 4}, {1, 2}})), c10::Error);
  EXPECT_THROW((void)pick_rows(table, torch::tensor({{-1, 0}, {1, 2}})), c10::Error);
}

}  // namespace
}  // namespace eie::nn
