// Windowed attention: the windowed product equals full attention masked to the
// window; a window as large as the instance changes nothing; a decoder window of
// one is nearest neighbour; windows and local views keep permutation equivariance
// and feasibility.
#include <gtest/gtest.h>

#include "policies/attention_model/agent.h"
#include "src/agent/policy_registry.h"
#include "src/nn/neighbours.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

TEST(Window, NearestNodesAreSortedByDistanceAndStartWithTheNodeItself) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
  const auto p = torch::rand({2, 30, 2}, gen);
  const auto nearest = nn::nearest_nodes(p, 5);
  ASSERT_EQ(nearest.sizes(), (std::vector<int64_t>{2, 30, 5}));
  EXPECT_TRUE(torch::equal(nearest.select(2, 0), torch::arange(30).expand({2, 30})));
  const auto distance = torch::cdist(p, p);  // [2, 30, 30]
  const auto chosen = distance.gather(2, nearest);
  EXPECT_TRUE((chosen.slice(2, 1) >= chosen.slice(2, 0, 4)).all().item<bool>());
  // No unchosen node is nearer than the farthest chosen one.
  const auto fifth = std::get<0>(distance.sort(-1)).select(2, 4);
  EXPECT_TRUE(torch::allclose(chosen.select(2, 4), fifth));
}

TEST(Window, GridSearchFindsTheNearestNodesEvenWithTiesAndClusters) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(11);
  // Integer coordinates (many exact ties), a tight cluster, and far outliers.
  auto points = torch::cat({torch::randint(0, 12, {300, 2}, gen).to(torch::kFloat),
                            torch::rand({100, 2}, gen) * 0.01 + 5,
                            torch::tensor({{1000.0f, -1000.0f}, {-50.0f, 70.0f}})});
  const int64_t n = points.size(0);
  for (const int64_t k : {int64_t{1}, int64_t{7}, int64_t{50}, n}) {
    const auto found = nn::nearest_nodes(points.unsqueeze(0), k)[0];
    const auto distance = torch::cdist(points.to(torch::kDouble), points.to(torch::kDouble));
    // The k-th distance found equals the true k-th smallest, and rows are sorted.
    const auto chosen = distance.gather(1, found);
    const auto truth = std::get<0>(distance.sort(1)).slice(1, 0, k);
    EXPECT_TRUE(torch::allclose(chosen, truth, 0, 1e-9)) << "k " << k;
    for (int64_t i = 0; i < n; i += 37) {  // no node twice in a row
      EXPECT_EQ(std::get<0>(at::_unique(found[i])).numel(), k) << "k " << k << " row " << i;
    }
  }
}

// The search a GPU runs (every pair sorted) finds the grid search's nodes in its order,
// ties broken by index in both, double positions rounded to float in both.
TEST(Window, SortingFindsWhatTheGridSearchFinds) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(12);
  const auto ties = torch::randint(0, 6, {3, 80, 2}, gen).to(torch::kFloat);
  const auto uniform = torch::rand({3, 80, 2}, gen);
  // Double positions are searched as floats: offsets below float's resolution tie.
  const auto jittered =
      ties.to(torch::kDouble) + torch::rand({3, 80, 2}, gen, torch::kDouble) * 1e-9;
  for (const auto& points : {ties, uniform, jittered}) {
    for (const int64_t k : {int64_t{1}, int64_t{12}, int64_t{80}}) {
      EXPECT_TRUE(
          torch::equal(nn::nearest_nodes_by_sorting(points, k), nn::nearest_nodes(points, k)))
          << "k " << k;
    }
  }
}

TEST(Window, GridSearchIsExactOnUniformPointsAtTheEncoderSize) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(13);
  const auto points = torch::rand({1, 1600, 2}, gen);
  const auto found = nn::nearest_nodes(points, 100)[0];
  const auto p = points[0].to(torch::kDouble);
  const auto distance = torch::cdist(p, p);
  const auto truth = std::get<0>(distance.sort(1)).slice(1, 0, 100);
  EXPECT_TRUE(torch::allclose(distance.gather(1, found), truth, 0, 1e-9));
}

TEST(Window, FusedKernelMatchesTheDifferentiablePath) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(12);
  const int64_t B = 2, M = 4, n = 60, d = 8, K = 9;
  const auto q = torch::randn({B, M, n, d}, gen), k = torch::randn({B, M, n, d}, gen),
             v = torch::randn({B, M, n, d}, gen);
  const auto neighbours = nn::nearest_nodes(torch::rand({B, n, 2}, gen), K);
  torch::Tensor fused;
  {
    torch::NoGradGuard no_grad;
    fused = nn::windowed_attention(q, k, v, neighbours, 0.4);
  }
  const auto traced = nn::windowed_attention(q.clone().requires_grad_(), k, v, neighbours, 0.4);
  ASSERT_TRUE(traced.requires_grad());
  EXPECT_TRUE(torch::allclose(fused, traced.detach(), 1e-5, 1e-6));
}

TEST(Window, WindowedAttentionEqualsFullAttentionMaskedToTheWindow) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
  const int64_t B = 2, M = 3, n = 40, d = 4, K = 7;
  const auto q = torch::randn({B, M, n, d}, gen, torch::kDouble);
  const auto k = torch::randn({B, M, n, d}, gen, torch::kDouble);
  const auto v = torch::randn({B, M, n, d}, gen, torch::kDouble);
  const auto neighbours = nn::nearest_nodes(torch::rand({B, n, 2}, gen), K);
  const auto windowed = nn::windowed_attention(q, k, v, neighbours, 0.3);
  const auto inside = torch::zeros({B, n, n}, torch::kBool).scatter(2, neighbours, true);
  const auto scores = torch::matmul(q, k.transpose(-1, -2)) * 0.3;
  const auto masked = scores.masked_fill(inside.logical_not().unsqueeze(1), -INFINITY);
  const auto full = torch::matmul(torch::softmax(masked, -1), v);
  EXPECT_TRUE(torch::allclose(windowed, full, 1e-10, 1e-12));
}

TEST(Window, AWindowAsLargeAsTheInstanceChangesNothing) {
  torch::manual_seed(21);
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  agent->network().eval();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  const auto instances = problem->generate(4, 30, gen);
  torch::NoGradGuard no_grad;
  const auto plain = agent->rollout(instances, Selection::greedy, std::nullopt);
  agent->set_attention({nullptr, ScaleScope::all, 30});
  const auto windowed = agent->rollout(instances, Selection::greedy, std::nullopt);
  EXPECT_TRUE(torch::equal(plain.actions, windowed.actions));
  EXPECT_TRUE(torch::equal(plain.step_log_probs, windowed.step_log_probs));
}

TEST(Window, ADecoderWindowOfOneIsNearestNeighbour) {
  torch::manual_seed(22);
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  agent->network().eval();
  agent->set_attention({nullptr, ScaleScope::all, 1, WindowParts{false, false, true, false}});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
  const int64_t n = 25;
  const auto instances = problem->generate(3, n, gen);
  torch::NoGradGuard no_grad;
  const auto tours = agent->rollout(instances, Selection::greedy, std::nullopt).actions;
  const auto coords = instances.at("coords");
  for (int64_t b = 0; b < 3; ++b) {
    std::vector<bool> visited(n, false);
    int64_t at = tours[b][0].item<int64_t>();
    visited[at] = true;
    for (int64_t step = 1; step < n; ++step) {
      const auto distance = (coords[b] - coords[b][at]).pow(2).sum(-1);
      int64_t best = -1;
      for (int64_t j = 0; j < n; ++j) {
        if (!visited[j] && (best < 0 || distance[j].item<float>() < distance[best].item<float>())) {
          best = j;
        }
      }
      ASSERT_EQ(tours[b][step].item<int64_t>(), best) << "instance " << b << " step " << step;
      visited[best] = true;
      at = best;
    }
  }
}

TEST(Window, WindowsKeepEquivarianceAndFeasibility) {
  torch::manual_seed(23);
  for (const std::string name : {"tsp", "cvrp"}) {
    SCOPED_TRACE(name);
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, NetworkOptions{}, 20);
    agent->network().eval();
    agent->network().to(torch::kDouble);
    agent->set_attention({make_scale_policy("logn-base"), ScaleScope::all, 8});
    auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
    const int64_t n = 40;
    auto instances = problem->generate(3, n, gen);
    std::map<std::string, torch::Tensor> fields;
    for (const auto& [key, value] : instances.fields()) {
      fields[key] = value.is_floating_point() ? value.to(torch::kDouble) : value;
    }
    instances = Instances(fields);
    torch::NoGradGuard no_grad;
    const auto actions = agent->rollout(instances, Selection::greedy, std::nullopt).actions;
    EXPECT_NO_THROW((void)problem->check(instances, actions));
    if (name != "tsp") continue;
    const auto perm = torch::randperm(n, gen);
    const Instances permuted({{"coords", instances.at("coords").index_select(1, perm)}});
    auto& am = dynamic_cast<policy::AttentionAgent&>(*agent);
    EXPECT_LT((am.embed(instances).index_select(1, perm) - am.embed(permuted)).abs().max().item<double>(),
              1e-9);
    const auto tour_p = agent->rollout(permuted, Selection::greedy, std::nullopt).actions;
    EXPECT_TRUE(torch::equal(perm.index({tour_p}), actions));
  }
}

TEST(Window, LocalViewsDecodeFeasibleEquivariantTours) {
  torch::manual_seed(24);
  auto agent = test::eval_double_agent("tsp", 20);
  const auto& problem = agent->problem();
  agent->set_attention({make_scale_policy("logn-base"), ScaleScope::all, 10,
                        WindowParts{false, false, false, true}});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
  const int64_t n = 30;
  const Instances instances({{"coords", torch::rand({3, n, 2}, gen, torch::kDouble)}});
  torch::NoGradGuard no_grad;
  const auto t = agent->rollout(instances, Selection::greedy, std::nullopt);
  const auto checked = problem.check(instances, t.actions);
  EXPECT_TRUE(torch::allclose(checked, t.cost.to(torch::kDouble), 1e-6, 1e-6));
  const auto perm = torch::randperm(n, gen);
  const Instances permuted({{"coords", instances.at("coords").index_select(1, perm)}});
  const auto tour_p = agent->rollout(permuted, Selection::greedy, std::nullopt).actions;
  EXPECT_TRUE(torch::equal(perm.index({tour_p}), t.actions));
  // Sampling too stays inside the views and feasible.
  const auto sampled = agent->rollout(instances, Selection::sample, gen);
  EXPECT_NO_THROW((void)problem.check(instances, sampled.actions));
}

TEST(Window, LocalViewsOfProblemsWithoutThemAreRefusedClearly) {
  const auto problem = make_problem("cvrp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  agent->set_attention({nullptr, ScaleScope::all, 5, WindowParts{false, false, false, true}});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
  torch::NoGradGuard no_grad;
  EXPECT_THROW((void)agent->rollout(problem->generate(2, 12, gen), Selection::greedy, std::nullopt),
               std::invalid_argument);
}

}  // namespace
}  // namespace eie
