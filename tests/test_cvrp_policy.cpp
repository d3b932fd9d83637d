// CVRP through the attention model: golden agreement with Kool et al.'s
// reference weights, Kool's masking rules, feasibility of every decoded
// solution (checked independently) and equivariance over customers.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "policies/attention_model/agent.h"
#include "policies/attention_model/kool_import.h"
#include "problems/cvrp/environment.h"
#include "problems/cvrp/problem.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/io/h5_file.h"
#include "src/problem/registry.h"
#include "tests/scale_settings.h"
#include "tests/test_support.h"

namespace eie {
namespace {

std::filesystem::path reference(const std::string& name) {
  return test::shared_dir() / "reference/kool-am" / name;
}

// A golden group's instances in our schema (raw integer demands and the capacity).
Instances golden_instances(const h5::Reader& golden, const std::string& group) {
  const auto locs = golden.read(group + "locs");
  const auto count = locs.size(0);
  // The capacity is a root-group attribute of each group's recipe: 30 for n20, 50 for n100.
  const double capacity = locs.size(1) == 20 ? 30 : 50;
  return Instances({{"depot", golden.read(group + "depot")},
                    {"coords", locs},
                    {"demand", golden.read(group + "demand_int").to(torch::kFloat)},
                    {"capacity", torch::full({count}, capacity, torch::kFloat)}});
}

class KoolCvrpGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(KoolCvrpGolden, EncoderActionsLogProbsAndCostsMatchFromShared) {
  EIE_REQUIRE_SHARED();
  torch::NoGradGuard no_grad;
  auto agent = policy::import_kool(reference("cvrp100.h5"), make_problem("cvrp"));
  const h5::Reader golden(reference("golden.h5"));
  const std::string group = "cvrp/" + GetParam() + "/";
  const auto instances = golden_instances(golden, group);
  // Our normalised demands are Kool's, bit for bit.
  const auto q = instances.at("demand") / instances.at("capacity").unsqueeze(1);
  EXPECT_TRUE(torch::equal(q, golden.read(group + "demand")));

  auto& am = dynamic_cast<policy::AttentionAgent&>(*agent);
  EXPECT_LT((am.embed(instances) - golden.read(group + "embeddings")).abs().max().item<float>(),
            1e-4);

  const auto t = agent->rollout(instances, Selection::greedy, std::nullopt);
  const auto expected = golden.read(group + "actions");  // padded with -1
  const auto real = expected >= 0;
  const int64_t width = std::max(expected.size(1), t.actions.size(1));
  const auto ours = torch::constant_pad_nd(t.actions, {0, width - t.actions.size(1)}, 0);
  const auto theirs = torch::constant_pad_nd(expected, {0, width - expected.size(1)}, -1);
  const auto real_wide = theirs >= 0;
  EXPECT_TRUE(torch::equal(ours.masked_select(real_wide), theirs.masked_select(real_wide)));
  EXPECT_TRUE((ours.masked_select(real_wide.logical_not()) == 0).all().item<bool>());
  const auto logp = torch::constant_pad_nd(t.step_log_probs, {0, width - t.step_log_probs.size(1)});
  const auto golden_logp =
      torch::constant_pad_nd(golden.read(group + "logp_chosen"), {0, width - expected.size(1)});
  EXPECT_LT((logp - golden_logp).masked_select(real_wide).abs().max().item<float>(), 1e-4);
  EXPECT_LT((t.cost - golden.read(group + "cost")).abs().max().item<float>(), 1e-4);
  EXPECT_EQ(real.sum().item<int64_t>(), real_wide.sum().item<int64_t>());
}

INSTANTIATE_TEST_SUITE_P(Sizes, KoolCvrpGolden, ::testing::Values("n20", "n100"));

TEST(CvrpGenerator, ReproducesKoolRecipeOfTheGoldenInstancesFromShared) {
  EIE_REQUIRE_SHARED();
  const h5::Reader golden(reference("golden.h5"));
  auto gen = at::make_generator<at::CPUGeneratorImpl>(100202);
  const auto drawn = make_problem("cvrp")->generate(2, 100, gen);
  EXPECT_TRUE(torch::equal(drawn.at("coords"), golden.read("cvrp/n100/locs")));
  EXPECT_TRUE(
      torch::equal(drawn.at("demand"), golden.read("cvrp/n100/demand_int").to(torch::kFloat)));
  EXPECT_TRUE(torch::equal(drawn.at("depot"), golden.read("cvrp/n100/depot")));
  EXPECT_TRUE((drawn.at("capacity") == 50).all().item<bool>());
}

TEST(CvrpGenerator, ProtocolsAndCapacities) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  const auto kool = make_problem("cvrp", ProblemOptions{{"protocol", "kool"}})->generate(50, 400, gen);
  EXPECT_TRUE((kool.at("capacity") == 50).all().item<bool>());  // kept at 50 as n grows
  const auto d = kool.at("demand");
  EXPECT_TRUE(torch::equal(d, d.round()));
  EXPECT_EQ(d.min().item<float>(), 1);
  EXPECT_EQ(d.max().item<float>(), 9);
  const auto eie = make_problem("cvrp", ProblemOptions{{"protocol", "eie"}, {"capacity", "15"}})->generate(50, 400, gen);
  EXPECT_TRUE((eie.at("capacity") == 15).all().item<bool>());
  EXPECT_GT(eie.at("demand").min().item<float>(), 0);
  EXPECT_LT(eie.at("demand").max().item<float>(), 1);
  EXPECT_TRUE(
      (make_problem("cvrp", ProblemOptions{{"protocol", "eie"}})->generate(2, 5, gen).at("capacity") ==
       10)
          .all()
          .item<bool>());
  EXPECT_TRUE((make_problem("cvrp", ProblemOptions{{"protocol", "kool"}, {"capacity", "kool"}})
                   ->generate(2, 20, gen)
                   .at("capacity") == 30)
                  .all()
                  .item<bool>());
  EXPECT_THROW((void)make_problem("cvrp", ProblemOptions{{"protocol", "poisson"}}),
               std::invalid_argument);
  EXPECT_THROW((void)make_problem("cvrp", ProblemOptions{{"protocol", "kool"}, {"capacity", "-3"}}),
               std::invalid_argument);
}

TEST(CvrpEnvironment, KoolMaskingRules) {
  // Depot at the origin, three customers with q = 0.5, 0.6, 0.4.
  const auto locations = torch::tensor({0.f, 0.f, 1.f, 0.f, 0.f, 1.f, 1.f, 1.f}).view({1, 4, 2});
  const auto q = torch::tensor({0.5f, 0.6f, 0.4f}).view({1, 3});
  cvrp::CvrpEnvironment env(locations, torch::zeros({1, 4, 3}), q);
  auto mask = env.feasible();
  EXPECT_TRUE(torch::equal(mask[0], torch::tensor({false, true, true, true})));  // no depot at t=0
  env.step(torch::tensor({1}));  // used 0.5: customer 2 (0.6) no longer fits
  mask = env.feasible();
  EXPECT_TRUE(torch::equal(mask[0], torch::tensor({true, false, false, true})));
  env.step(torch::tensor({3}));  // used 0.9: nothing fits, only the depot
  mask = env.feasible();
  EXPECT_TRUE(torch::equal(mask[0], torch::tensor({true, false, false, false})));
  env.step(torch::tensor({0}));
  EXPECT_FALSE(env.done());
  mask = env.feasible();
  EXPECT_TRUE(torch::equal(mask[0], torch::tensor({false, false, true, false})));
  env.step(torch::tensor({2}));
  env.step(torch::tensor({0}));
  EXPECT_TRUE(env.done());
  EXPECT_TRUE(torch::equal(env.feasible()[0], torch::tensor({true, false, false, false})));
  // 0 -> 1 -> 3 -> 0 -> 2 -> 0: 1 + 1 + sqrt 2 + 1 + 1.
  EXPECT_NEAR(env.cost().item<float>(), 4 + std::sqrt(2.0), 1e-6);
}

TEST(CvrpDecoding, LocalSearchNeverLengthensAPolicysRoutes) {
  const auto problem = make_problem("cvrp");
  auto agent = make_agent(problem, NetworkOptions{}, 100);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
  const auto instances = problem->generate(3, 130, gen);
  const auto solutions = solve(*agent, instances, parse_decoding("greedy"), 3, gen);
  const auto cost = problem->check(instances, solutions.actions);
  const auto improved = problem->improve("local", instances, solutions.actions);
  EXPECT_TRUE((problem->check(instances, improved) <= cost + 1e-9).all().item<bool>());
}

void expect_equivariant(Agent& agent, int64_t n, uint64_t seed) {
  torch::NoGradGuard no_grad;
  agent.network().eval();
  agent.network().to(torch::kDouble);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  auto instances = make_problem("cvrp")->generate(4, n, gen);
  for (const auto* field : {"depot", "coords", "demand", "capacity"}) {
    instances = instances.with(field, instances.at(field).to(torch::kDouble));
  }
  const auto perm = torch::randperm(n, gen);
  const auto permuted = instances.with("coords", instances.at("coords").index_select(1, perm))
                            .with("demand", instances.at("demand").index_select(1, perm));

  auto& am = dynamic_cast<policy::AttentionAgent&>(agent);
  const auto h = am.embed(instances), hp = am.embed(permuted);  // row 0 is the depot
  const auto node_perm = torch::cat({torch::zeros({1}, torch::kLong), perm + 1});
  EXPECT_LT((h.index_select(1, node_perm) - hp).abs().max().item<double>(), 1e-5);

  const auto a = agent.rollout(instances, Selection::greedy, std::nullopt).actions;
  const auto ap = agent.rollout(permuted, Selection::greedy, std::nullopt).actions;
  // Customer j of the permuted instance is customer perm[j] of the original.
  EXPECT_TRUE(torch::equal(node_perm.index({ap}), a));
}

TEST(CvrpEquivariance, ReferenceModelUnderEveryScalePolicyFromShared) {
  EIE_REQUIRE_SHARED();
  auto agent = policy::import_kool(reference("cvrp100.h5"), make_problem("cvrp"));
  for (const auto& name : scale_policy_names()) {
    if (name == "eie") continue;  // needs a scale file; the network only changes lambda
    SCOPED_TRACE(name);
    agent->set_attention({make_scale_policy(name), ScaleScope::all});
    expect_equivariant(*agent, 150, 3);
  }
}

TEST(CvrpProblem, ValidationNamesTheField) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
  const auto problem = make_problem("cvrp");
  const auto good = problem->generate(2, 5, gen);
  EXPECT_NO_THROW(problem->validate(good));
  const auto expect_bad = [&](const Instances& bad, const std::string& fragment) {
    try {
      problem->validate(bad);
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  auto demand = good.at("demand").clone();
  demand[1][2] = 60;
  expect_bad(good.with("demand", demand), "capacity");
  demand[1][2] = -1;
  expect_bad(good.with("demand", demand), "demand");
  expect_bad(good.with("capacity", torch::zeros({2})), "capacity");
  auto coords = good.at("coords").clone();
  coords[0][0][1] = std::nanf("");
  expect_bad(good.with("coords", coords), "finite");
  expect_bad(good.with("demand", torch::ones({2, 4})), "demand");
}

}  // namespace
}  // namespace eie
