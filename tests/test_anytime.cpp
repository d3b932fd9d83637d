// solve_within(): eie solve's time limit. Rounds never make an instance worse, the
// local search applies, the limit holds, and a zero limit is one round.
#include <gtest/gtest.h>

#include <chrono>

#include "src/agent/anytime.h"
#include "src/agent/policy_registry.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

TEST(Anytime, RoundsOnlyImproveAndTheLimitHolds) {
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, test::small_network(32, 2, 32, 1), 20);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
    const auto instances = problem->generate(3, 15, gen);
    const auto local = problem_descriptor(name).local_search;
    auto g1 = gen.clone();
    const auto once = solve_within(*agent, instances, 0, "", local, 3, g1);
    EXPECT_EQ(once.rounds, 1) << name;
    EXPECT_EQ(once.round_names.front(), std::string("multistart:15+aug8 + ") + local) << name;
    EXPECT_EQ(once.solutions, 3 * 15 * 8) << name;
    // The round's solutions, checked and improved: no worse than the plain greedy decode.
    const auto greedy =
        problem->check(instances, solve(*agent, instances, Decoding{}, 3, gen).actions);
    EXPECT_TRUE((once.best.cost <= greedy + 1e-9).all().item<bool>()) << name;
    EXPECT_TRUE(torch::allclose(problem->check(instances, once.best.actions), once.best.cost))
        << name;

    auto g2 = gen.clone();
    const auto start = std::chrono::steady_clock::now();
    const auto longer = solve_within(*agent, instances, 0.5, "", local, 3, g2);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(longer.rounds, 2) << name;
    EXPECT_LT(took, 0.5 + 0.5) << name;  // no round started that would end far past it
    EXPECT_TRUE((longer.best.cost <= once.best.cost + 1e-9).all().item<bool>()) << name;
    EXPECT_TRUE(torch::allclose(problem->check(instances, longer.best.actions), longer.best.cost))
        << name;
    for (const auto round : longer.best_round) EXPECT_LT(round, longer.rounds) << name;
  }
}

TEST(Anytime, PackingWithoutLocalSearchOrSymmetries) {
  const auto problem = make_problem("bpp3d");
  auto agent = make_agent(problem, test::small_network(32, 2, 32, 1), 10);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
  const auto instances = problem->generate(2, 8, gen);
  const auto result = solve_within(*agent, instances, 0, "", "", 2, gen);
  EXPECT_EQ(result.round_names.front(), "multistart:8");
  EXPECT_NO_THROW((void)problem->check(instances, result.best.actions));
}

TEST(Anytime, DefaultLimitGrowsWithTheInstance) {
  EXPECT_DOUBLE_EQ(default_time_limit(10), 2.0);
  EXPECT_DOUBLE_EQ(default_time_limit(100), 3.0);
  EXPECT_DOUBLE_EQ(default_time_limit(1000), 30.0);
  EXPECT_DOUBLE_EQ(default_time_limit(100000), 60.0);
}

}  // namespace
}  // namespace eie
