// 3D packing through the attend2pack policy and the one decode loop: every
// decoded packing passes the independent check (no height map), the
// environment's load rate is the checked one, and permuting the boxes permutes
// the decisions.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>

#include "policies/attend2pack/agent.h"
#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/environment.h"
#include "problems/bpp3d/heuristic.h"
#include "problems/bpp3d/problem.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/nn/glimpse.h"
#include "src/problem/registry.h"

namespace eie {
namespace {

std::shared_ptr<const Problem> packing(const std::string& base = "") {
  return make_problem("bpp3d", {{"base", base}});
}

// The policy scores (box, orientation) pairs with six queries per step; that must
// equal the plain attend2pack pointer over 6 n explicit keys P_o e_i (from
// project_pointer_keys), given the same glimpse and preferences.
TEST(PackingDecoding, BoxPointerEqualsExplicitKeys) {
  const auto problem = packing("60x50");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  auto& pack = dynamic_cast<policy::Attend2PackAgent&>(*agent);
  agent->network().eval();
  torch::NoGradGuard no_grad;
  auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
  const auto instances = problem->generate(3, 7, gen);
  const auto env = dynamic_cast<const bpp3d::Bpp3dProblem&>(*problem).environment(instances);
  auto& model = *pack.model();
  const auto plan = pack.plan(env->size());
  const auto embeddings = model.encode(*env, plan.encoder);
  const auto policy = model.start(*env, embeddings, plan.glimpse);
  for (int step = 0; step < 4; ++step) env->step(policy->log_probs(env->feasible()).argmax(1));
  ASSERT_TRUE(env->choosing_box());  // two boxes packed, some orientations masked
  const auto feasible = env->feasible();
  const auto got = policy->log_probs(feasible);

  const int64_t B = embeddings.size(0), n = embeddings.size(1), E = embeddings.size(2);
  const auto projected = model.project_box_embeddings(embeddings).chunk(2, -1);
  const auto memory = nn::glimpse_memory(projected[0], projected[1], model.options().encoder.heads);
  const auto query =
      model.project_fixed_context(embeddings.mean(1)) + model.project_bin(env->bin_features());
  const auto unpacked = feasible.view({B, n, bpp3d::kOrientations}).any(2);
  const auto r =
      model.project_out(nn::glimpse(memory, query, unpacked.logical_not(), plan.glimpse.scale));
  const auto keys = model.project_pointer_keys(embeddings).view({B, n * bpp3d::kOrientations, E});
  const auto logits = torch::bmm(keys, r.unsqueeze(2)).squeeze(2) / std::sqrt(double(E));
  const auto preference = model.box_preference(env->orientation_features()).squeeze(2) +
                          model.fit_preference(env->fit_features()).squeeze(2);
  const auto expected = torch::log_softmax(
      (torch::tanh(logits) * model.options().tanh_clip + preference)
          .masked_fill(feasible.logical_not(), -std::numeric_limits<float>::infinity()),
      1);
  ASSERT_TRUE(feasible.logical_not().any().item<bool>());
  EXPECT_TRUE(torch::equal(got.isinf(), feasible.logical_not()));
  EXPECT_TRUE(torch::allclose(got.masked_fill(feasible.logical_not(), 0),
                              expected.masked_fill(feasible.logical_not(), 0), 1e-5, 1e-5));
}

TEST(PackingEnvironment, ExactTwoBoxPacking) {
  // Two 60 x 100 x 10 slabs on a 120 x 100 base: side by side, H = 10, load rate 1.
  bpp3d::BppData data{120, 100, {{60, 100, 10}, {100, 60, 10}}};
  bpp3d::Bpp3dEnvironment env({data});
  env.step(torch::tensor({bpp3d::box_action(0, 0)}));
  auto positions = env.feasible();
  EXPECT_TRUE(positions[0][bpp3d::position_action(0, 0, 100)].item<bool>());
  EXPECT_EQ(positions.sum().item<int64_t>(), 1);  // a flat empty bin has one corner
  env.step(torch::tensor({bpp3d::position_action(0, 0, 100)}));
  const auto boxes = env.feasible();
  EXPECT_FALSE(boxes[0].slice(0, 0, 6).any().item<bool>());  // box 0 is packed
  // Fit features, S = 100, H = 10: box 1 turned rests on the floor beside box 0
  // (raises H by 0); as given, 100 long, it must rest on box 0 (raises H by 10).
  const auto fits = env.fit_features()[0];
  EXPECT_TRUE(torch::equal(fits.slice(0, 0, 6), torch::zeros({6, 2})));
  EXPECT_TRUE(torch::allclose(fits[bpp3d::box_action(1, 1)], torch::tensor({-0.1f, 0.f})));
  EXPECT_TRUE(torch::allclose(fits[bpp3d::box_action(1, 0)], torch::tensor({0.f, 0.1f})));
  env.step(torch::tensor({bpp3d::box_action(1, 1)}));  // (60, 100, 10) after turning
  positions = env.feasible();
  EXPECT_TRUE(positions[0][bpp3d::position_action(60, 0, 100)].item<bool>());
  env.step(torch::tensor({bpp3d::position_action(60, 0, 100)}));
  EXPECT_TRUE(env.done());
  EXPECT_FLOAT_EQ(env.cost().item<float>(), -1.0f);
  EXPECT_THROW(bpp3d::Bpp3dEnvironment({data, bpp3d::BppData{100, 100, data.boxes}}),
               std::invalid_argument);
}

TEST(PackingProblem, HeuristicThroughTheDecodeActionsMatchesThePureHeuristic) {
  const auto problem = packing();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
  const auto instances = problem->generate(5, 60, gen);
  const auto costs = problem->check(instances, problem->construct("heightmap", instances));
  const auto data = bpp3d::data_of(instances);
  for (size_t b = 0; b < data.size(); ++b) {
    const auto placements = bpp3d::heightmap_greedy(data[b]);
    const auto rate = bpp3d::load_rate(data[b], bpp3d::check_packing(data[b], placements));
    EXPECT_NEAR(-costs[b].item<double>(), rate, 1e-12);
  }
  EXPECT_THROW((void)problem->construct("nn", instances), std::invalid_argument);
  EXPECT_THROW((void)problem->improve("2opt", instances, torch::zeros({5, 120})),
               std::invalid_argument);
}

TEST(PackingProblem, ValidationNamesTheProblem) {
  const auto problem = packing();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
  const auto good = problem->generate(3, 5, gen);
  EXPECT_NO_THROW(problem->validate(good));
  auto boxes = good.at("boxes").clone();
  boxes[1][2][0] = 0;
  EXPECT_THROW(problem->validate(good.with("boxes", boxes)), std::invalid_argument);
  boxes[1][2][0] = 500;
  boxes[1][2][1] = 500;
  EXPECT_THROW(problem->validate(good.with("boxes", boxes)), std::invalid_argument);
  auto bin = good.at("bin").clone();
  bin[2][0] = 140;
  EXPECT_THROW(problem->validate(good.with("bin", bin)), std::invalid_argument);  // two bases
  EXPECT_THROW(problem->validate(good.with("boxes", good.at("boxes").to(torch::kFloat))),
               std::invalid_argument);
  EXPECT_THROW((void)packing("120"), std::invalid_argument);
  EXPECT_THROW((void)packing("30x30"), std::invalid_argument);  // sides up to 50 may not fit
}

}  // namespace
}  // namespace eie
