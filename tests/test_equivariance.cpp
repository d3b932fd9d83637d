// Permuting the cities permutes the encoder output, and the greedy tour is the
// same cycle (mapped through the permutation), for a random and a trained model.
// Run in float64 so that float32 rounding cannot flip near-tied argmaxes.
#include <gtest/gtest.h>

#include "attention_model/agent.h"
#include "attention_model/kool_import.h"
#include "policy_registry.h"
#include "problem_registry.h"
#include "test_support.h"

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

TEST(Equivariance, RandomModelBatchNorm) {
  torch::manual_seed(11);  // a fixed random model
  auto agent = make_agent(make_problem("tsp"), NetworkOptions{}, 20);
  for (auto& b : agent->network().named_buffers()) {  // non-trivial running statistics
    if (b.key().find("running_mean") != std::string::npos) b.value().normal_(0, 0.2);
    if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 1.5);
  }
  expect_equivariant(*agent, 20, 1);
}

TEST(Equivariance, RandomModelLayerNorm) {
  torch::manual_seed(12);
  NetworkOptions options;
  options.encoder.normalization = nn::Normalization::layer;
  auto agent = make_agent(make_problem("tsp"), options, 20);
  expect_equivariant(*agent, 30, 2);
}

TEST(Equivariance, ReferenceModelUnderEveryScalePolicy) {
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
