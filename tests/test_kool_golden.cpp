// With the reference weights of Kool et al., greedy decoding reproduces the
// golden tours exactly and the per-step log-probabilities within 1e-4.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "policies/attention_model/agent.h"
#include "policies/attention_model/kool_import.h"
#include "problems/tsp/problem.h"
#include "src/agent/policy_registry.h"
#include "src/io/h5_file.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

struct Golden {
  std::unique_ptr<Agent> agent;
  std::unique_ptr<h5::Reader> golden;
};

Golden load_tsp() {
  auto problem = make_problem("tsp");
  return {policy::import_kool(test::shared_dir() / "reference/kool-am/tsp100.h5", problem),
          std::make_unique<h5::Reader>(test::shared_dir() / "reference/kool-am/golden.h5")};
}

class KoolTspGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(KoolTspGolden, EncoderAndGreedyTourMatchFromShared) {
  EIE_REQUIRE_SHARED();
  torch::NoGradGuard no_grad;
  auto [agent, golden] = load_tsp();
  const std::string group = "tsp/" + GetParam() + "/";
  const auto coords = golden->read(group + "coords");
  const Instances instances({{"coords", coords}});

  auto& am = dynamic_cast<policy::AttentionAgent&>(*agent);
  const auto embeddings = am.embed(instances);
  EXPECT_LT((embeddings - golden->read(group + "embeddings")).abs().max().item<float>(), 1e-4);

  const auto t = agent->rollout(instances, Selection::greedy, std::nullopt);
  EXPECT_TRUE(torch::equal(t.actions, golden->read(group + "tour")));
  EXPECT_LT((t.step_log_probs - golden->read(group + "logp_chosen")).abs().max().item<float>(),
            1e-4);
  EXPECT_LT((t.cost - golden->read(group + "length")).abs().max().item<float>(), 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Sizes, KoolTspGolden, ::testing::Values("n20", "n100"));

TEST(KoolTspGolden, LogNOverDScaleReproducesScaledToursFromShared) {
  EIE_REQUIRE_SHARED();
  torch::NoGradGuard no_grad;
  auto [agent, golden] = load_tsp();
  const Instances instances({{"coords", golden->read("tsp/n100/coords")}});
  const std::shared_ptr<const ScalePolicy> lnn_d = make_scale_policy("logn-d");
  EXPECT_NEAR(lnn_d->lambda({100, 16, 100}), 0.287823, 1e-6);

  agent->set_attention({lnn_d, ScaleScope::encoder});
  auto t = agent->rollout(instances, Selection::greedy, std::nullopt);
  EXPECT_TRUE(torch::equal(t.actions, golden->read("tsp/n100/tour_lnn_over_d_enc")));

  agent->set_attention({lnn_d, ScaleScope::all});
  t = agent->rollout(instances, Selection::greedy, std::nullopt);
  EXPECT_TRUE(torch::equal(t.actions, golden->read("tsp/n100/tour_lnn_over_d_encglimpse")));
  EXPECT_FALSE(torch::equal(t.actions, golden->read("tsp/n100/tour")));
}

TEST(KoolImport, RejectsWrongProblemFromShared) {
  EIE_REQUIRE_SHARED();
  EXPECT_THROW((void)policy::import_kool(test::shared_dir() / "reference/kool-am/cvrp100.h5",
                                         make_problem("tsp")),
               std::invalid_argument);
}

}  // namespace
}  // namespace eie
