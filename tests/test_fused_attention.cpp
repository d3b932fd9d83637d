// Fused attention (one operation with its own backward, on BLAS kernels) against the
// LibTorch ops it replaces: the same outputs and the same gradients.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <array>
#include <limits>
#include <utility>
#include <vector>

#include "src/nn/entropy_probe.h"
#include "src/nn/fused_attention.h"
#include "src/nn/multi_head_attention.h"

namespace eie::nn {
namespace {

struct AttentionCase {
  torch::Tensor q, keys, values;  // [B, M, r, d], [B, M, n, d], [B, M, n, d]
  ScoreBias bias;                 // beta [M], distance [B, r, n]
  torch::Tensor masked;           // [B, r, n], never a whole row
};

AttentionCase random_case(int64_t B, int64_t M, int64_t r, int64_t n, int64_t d,
                          torch::Dtype dtype) {
  const auto options = torch::TensorOptions().dtype(dtype);
  auto masked = torch::rand({B, r, n}) < 0.3;
  masked.select(2, 0).fill_(false);
  return {torch::randn({B, M, r, d}, options), torch::randn({B, M, n, d}, options),
          torch::randn({B, M, n, d}, options),
          ScoreBias{torch::rand({M}, options) * 5, torch::rand({B, r, n}, options)}, masked};
}

// What the encoder and the glimpse computed with LibTorch's ops.
torch::Tensor reference(const torch::Tensor& q, const torch::Tensor& keys,
                        const torch::Tensor& values, double scale, const ScoreBias& bias,
                        const torch::Tensor& masked) {
  auto scores = torch::matmul(q * scale, keys.transpose(-1, -2));
  if (bias.applies()) scores = scores - bias.offsets();
  if (masked.defined()) {
    scores = scores.masked_fill(masked.unsqueeze(1), -std::numeric_limits<double>::infinity());
  }
  return torch::matmul(torch::softmax(scores, -1), values);
}

// Outputs and the gradients of a random weighting of them, for q, keys, values and beta.
struct Results {
  torch::Tensor out, q, keys, values, beta;
};

template <typename Attention>
Results run(const AttentionCase& c, bool with_bias, bool with_mask, const Attention& attention) {
  auto q = c.q.clone().requires_grad_(), keys = c.keys.clone().requires_grad_();
  auto values = c.values.clone().requires_grad_();
  auto beta = c.bias.beta.clone().requires_grad_();
  const ScoreBias bias = with_bias ? ScoreBias{beta, c.bias.distance} : ScoreBias{};
  const auto out = attention(q, keys, values, 0.3, bias, with_mask ? c.masked : torch::Tensor());
  torch::manual_seed(11);
  // By shape, not randn_like: the same weights whatever the output's memory layout.
  (out * torch::randn(out.sizes(), out.options())).sum().backward();
  return {out.detach(), q.grad(), keys.grad(), values.grad(),
          with_bias ? beta.grad() : torch::Tensor()};
}

void expect_close(const torch::Tensor& a, const torch::Tensor& b, double tolerance,
                  const char* what) {
  ASSERT_EQ(a.sizes(), b.sizes()) << what;
  EXPECT_LT((a - b).abs().max().item<double>(), tolerance) << what;
}

// Queries as many as keys (the encoder) or not (the glimpse's steps); one key; one head;
// one query; width 1; enough work for the kernels' threads.
const std::vector<std::array<int64_t, 5>> kShapes{{3, 4, 7, 7, 5}, {2, 8, 10, 13, 16},
                                                  {2, 1, 4, 1, 3}, {1, 3, 1, 9, 2},
                                                  {2, 2, 5, 6, 1}, {4, 8, 40, 40, 16}};

TEST(FusedAttention, OutputsAndGradientsAreThoseOfLibTorchsOps) {
  torch::manual_seed(3);
  for (const auto& [B, M, r, n, d] : kShapes) {
    const auto c = random_case(B, M, r, n, d, torch::kDouble);
    for (const bool with_bias : {false, true}) {
      for (const bool with_mask : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << "B M r n d " << B << " " << M << " " << r << " " << n << " " << d
                     << ", bias " << with_bias << ", mask " << with_mask);
        const auto fused =
            run(c, with_bias, with_mask, [](auto&&... a) { return fused_attention(a...); });
        const auto expected =
            run(c, with_bias, with_mask, [](auto&&... a) { return reference(a...); });
        expect_close(fused.out, expected.out, 1e-12, "out");
        expect_close(fused.q, expected.q, 1e-12, "q");
        expect_close(fused.keys, expected.keys, 1e-12, "keys");
        expect_close(fused.values, expected.values, 1e-12, "values");
        if (with_bias) expect_close(fused.beta, expected.beta, 1e-11, "beta");
      }
    }
  }
}

// The glimpse memory stores keys and values node axis last ([B, M, d, n]); the
// kernels read that storage through a transposed view, gradients included.
TEST(FusedAttention, ReadsTransposedStorageAsItIs) {
  torch::manual_seed(4);
  const auto stored = [](const torch::Tensor& t) {
    return t.transpose(-1, -2).contiguous().transpose(-1, -2);
  };
  for (const auto& [B, M, r, n, d] : kShapes) {
    SCOPED_TRACE(testing::Message()
                 << "B M r n d " << B << " " << M << " " << r << " " << n << " " << d);
    const auto c = random_case(B, M, r, n, d, torch::kDouble);
    const auto fused =
        run(c, true, true,
            [&](const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                auto&&... rest) { return fused_attention(q, stored(k), stored(v), rest...); });
    const auto expected = run(c, true, true, [](auto&&... a) { return reference(a...); });
    expect_close(fused.out, expected.out, 1e-12, "out");
    expect_close(fused.q, expected.q, 1e-12, "q");
    expect_close(fused.keys, expected.keys, 1e-12, "keys");
    expect_close(fused.values, expected.values, 1e-12, "values");
    expect_close(fused.beta, expected.beta, 1e-11, "beta");
  }
}

// Queries viewed as heads of a projection's rows ([B, r, M, d], or q of a [B, r, 3, M, d]
// projection to queries, keys and values, as the encoder's), read with their row strides:
// outputs and gradients as the ops give them, whatever the upstream gradient's layout; the
// output has its heads side by side, so that concatenating them is a view.
TEST(FusedAttention, ReadsQueriesWhereAProjectionLeftThem) {
  torch::manual_seed(8);
  for (const auto& [B, M, r, n, d] : kShapes) {
    SCOPED_TRACE(testing::Message()
                 << "B M r n d " << B << " " << M << " " << r << " " << n << " " << d);
    const auto c = random_case(B, M, r, n, d, torch::kDouble);
    const auto side_by_side = [&](const torch::Tensor& q, auto&&... rest) {
      const auto rows = q.transpose(1, 2).contiguous();  // [B, r, M, d]
      const auto out = fused_attention(rows.transpose(1, 2), rest...);
      EXPECT_TRUE(out.transpose(1, 2).is_contiguous());
      return out;
    };
    const auto third_of_three = [&](const torch::Tensor& q, auto&&... rest) {
      const auto qkv = torch::stack({q.transpose(1, 2), q.transpose(1, 2) * 2, q.transpose(1, 2)},
                                    2);  // [B, r, 3, M, d]
      // Packed after: the gradient comes back packed.
      return fused_attention(qkv.select(2, 2).transpose(1, 2), rest...).contiguous();
    };
    const auto expected = run(c, true, true, [](auto&&... a) { return reference(a...); });
    for (const auto& fused :
         {run(c, true, true, side_by_side), run(c, true, true, third_of_three)}) {
      expect_close(fused.out, expected.out, 1e-12, "out");
      expect_close(fused.q, expected.q, 1e-12, "q");
      expect_close(fused.keys, expected.keys, 1e-12, "keys");
      expect_close(fused.values, expected.values, 1e-12, "values");
      expect_close(fused.beta, expected.beta, 1e-11, "beta");
    }
  }
}

// Float, as models run (sgemm): the same within float's precision.
TEST(FusedAttention, FloatGradientsAreThoseOfLibTorchsOps) {
  torch::manual_seed(6);
  const auto c = random_case(4, 8, 40, 40, 16, torch::kFloat);
  const auto fused = run(c, true, true, [](auto&&... a) { return fused_attention(a...); });
  const auto expected = run(c, true, true, [](auto&&... a) { return reference(a...); });
  expect_close(fused.out, expected.out, 1e-5, "out");
  expect_close(fused.q, expected.q, 1e-4, "q");
  expect_close(fused.keys, expected.keys, 1e-4, "keys");
  expect_close(fused.values, expected.values, 1e-4, "values");
  expect_close(fused.beta, expected.beta, 1e-2, "beta");  // a sum over 51,200 scores
}

// The encoder's layer runs the fused operation unless an entropy probe asks for the
// attention rows, which keeps LibTorch's ops: both must give the same layer, gradients
// included, with trained betas and instances in several groups.
TEST(FusedAttention, EncoderLayerIsTheOneLibTorchsOpsGive) {
  torch::manual_seed(7);
  MultiHeadAttentionOptions options;
  options.embed_dim = 16, options.heads = 4;
  options.trained_bias = {true, 2.0, 0, 0, true};
  MultiHeadAttention layer(options);
  layer->to(torch::kDouble);
  const int64_t B = 3, n = 1200;  // groups of 2^22 / n^2 = 2 instances: two groups
  const auto h = torch::randn({B, n, 16}, torch::kDouble);
  const NodeGeometry geometry{torch::rand({B, n, 2}, torch::kDouble), {}};
  std::array<std::pair<torch::Tensor, torch::Tensor>, 2> results;  // output, betas' gradient
  for (const bool probed : {false, true}) {
    EntropyProbe probe;
    AttentionSetting setting;
    setting.scale = 0.4;
    if (probed) setting.probe = &probe;
    layer->zero_grad();
    const auto out = layer->forward(h, setting, geometry);
    out.pow(2).sum().backward();
    results[probed] = {out.detach(), layer->distance_bias.grad().clone()};
  }
  expect_close(results[0].first, results[1].first, 1e-10, "out");
  expect_close(results[0].second, results[1].second, 1e-6, "betas' gradient");
}

// Long instances of nodes without positions (packing's boxes): measured by a probe (the
// calibrations), the layer attends in blocks of rows, and gives the fused kernel's output.
TEST(FusedAttention, RowBlocksOfNodesWithoutPositionsGiveTheSameAttention) {
  torch::manual_seed(9);
  MultiHeadAttentionOptions options;
  options.embed_dim = 16, options.heads = 4;
  MultiHeadAttention layer(options);
  layer->to(torch::kDouble);
  const int64_t n = 1100;  // 4 n^2 scores: more than one block of 2^22
  const auto h = torch::randn({1, n, 16}, torch::kDouble);
  torch::NoGradGuard no_grad;
  EntropyProbe probe;
  AttentionSetting setting;
  const auto fused = layer->forward(h, setting, {});
  setting.probe = &probe;
  const auto blocked = layer->forward(h, setting, {});
  expect_close(blocked, fused, 1e-10, "out");
  EXPECT_EQ(probe.rows(), n);
}

// Without gradients the scores of a bounded number of heads exist at a time: 512
// heads of 100 x 100 scores are more than one chunk. Float, as models run.
TEST(FusedAttention, WithoutGradientsInChunksGivesTheSameAttention) {
  torch::manual_seed(5);
  const auto c = random_case(64, 8, 100, 100, 16, torch::kFloat);
  torch::NoGradGuard no_grad;
  const auto fused = fused_attention(c.q, c.keys, c.values, 0.25, c.bias, c.masked);
  const auto expected = reference(c.q, c.keys, c.values, 0.25, c.bias, c.masked);
  expect_close(fused, expected, 1e-5, "out");
}

}  // namespace
}  // namespace eie::nn
