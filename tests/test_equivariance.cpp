// Permuting the cities permutes the encoder output, and the greedy tour is the
// same cycle (mapped through the permutation), for a random and a trained model,
// and for cosine attention (whose rows are bounded by its scale).
// Run in float64 so that float32 rounding cannot flip near-tied argmaxes.
#include <gtest/gtest.h>

#include <cmath>

#include "policies/attention_model/agent.h"
#include "policies/attention_model/kool_import.h"
#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

void expect_equivariant(Agent& agent, int64_t n, uint64_t seed) {
  torch::NoGradGuard no_grad;
  agent.network().eval();
  agent.network().to(torch::kDouble);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const Instances instances({{"coords", torch::rand({4, n, 2}, gen, torch::kDouble)}});
  const auto perm = torch::randperm(n, gen);
  const Instances permuted({{"coords", instances.at("coords").index_select(1, perm)}});

  auto& am = dynamic_cast<policy::AttentionAgent&>(agent);
  const auto h = am.embed(instances), hp = am.embed(permuted);
  EXPECT_LT((h.index_select(1, perm) - hp).abs().max().item<float>(), 1e-5);

  const auto tour = agent.rollout(instances, Selection::greedy, std::nullopt).actions;
  const auto tour_p = agent.rollout(permuted, Selection::greedy, std::nullopt).actions;
  // City perm[j] of the original is city j of the permuted instance.
  EXPECT_TRUE(torch::equal(perm.index({tour_p}), tour));
}

TEST(Equivariance, RandomModelLayerNorm) {
  torch::manual_seed(12);
  NetworkOptions options;
  options.encoder.normalization = nn::Normalization::layer;
  auto agent = make_agent(make_problem("tsp"), options, 20);
  expect_equivariant(*agent, 30, 2);
}

TEST(Equivariance, CosineAttentionModelWithAScaleAndAWindow) {
  torch::manual_seed(13);
  NetworkOptions options;
  options.encoder.cosine_scale = 10;
  auto agent = make_agent(make_problem("tsp"), options, 20);
  expect_equivariant(*agent, 30, 4);
  AttentionConfig windowed;
  windowed.policy = make_scale_policy("infoscale");
  windowed.window = 12;
  agent->set_attention(windowed);
  expect_equivariant(*agent, 40, 5);
}

TEST(CosineAttention, RowsAreBoundedByTheScaleAndTheFileKeepsIt) {
  torch::manual_seed(14);
  const double s = 3;
  nn::MultiHeadAttention attention(nn::MultiHeadAttentionOptions{32, 4, s});
  const auto h = torch::randn({2, 50, 32}) * 100;  // large inputs: dot products would saturate
  for (const double factor : {1.0, 2.0}) {
    const auto rows = attention->attention(h, AttentionSetting{factor / std::sqrt(8.0), 0});
    const auto ratio = std::get<0>(rows.max(-1)) / std::get<0>(rows.min(-1));
    EXPECT_LE(ratio.max().item<double>(), std::exp(2 * s * factor) * (1 + 1e-4)) << factor;
  }
  NetworkOptions options;
  options.encoder.cosine_scale = s;
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, options, 20);
  const auto dir = test::scratch_dir("cosine");
  save_model(*agent, dir / "m.h5");
  EXPECT_EQ(network_options_of(dir / "m.h5").encoder.cosine_scale, s);
  auto loaded = load_agent(dir / "m.h5", problem);
  agent->network().eval(), loaded->network().eval();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
  const auto instances = problem->generate(2, 15, gen);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(dynamic_cast<policy::AttentionAgent&>(*agent).embed(instances),
                           dynamic_cast<policy::AttentionAgent&>(*loaded).embed(instances)));
}

TEST(Equivariance, ReferenceModelUnderEveryScalePolicyFromShared) {
  EIE_REQUIRE_SHARED();
  auto agent =
      policy::import_kool(test::shared_dir() / "reference/kool-am/tsp100.h5", make_problem("tsp"));
  for (const auto& name : scale_policy_names()) {
    if (name == "eie") continue;  // needs a scale file; the network only changes lambda
    SCOPED_TRACE(name);
    agent->set_attention({make_scale_policy(name), ScaleScope::all});
    expect_equivariant(*agent, 150, 3);
  }
}

}  // namespace
}  // namespace eie
