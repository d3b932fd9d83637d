// Tiled decoding: tiles partition the cities within the size limit; joining tile
// tours is exactly optimal over openings and directions (checked by enumeration);
// tiled decoding with a policy gives feasible tours that are the same cycle for
// permuted input.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "problems/tsp/tiles.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::random_cities;

// The tour as a cycle in a canonical form: from city 0, towards its smaller neighbour.
tsp::Tour canonical(tsp::Tour tour) {
  std::rotate(tour.begin(), std::find(tour.begin(), tour.end(), 0), tour.end());
  if (tour.size() > 2 && tour.back() < tour[1]) std::reverse(tour.begin() + 1, tour.end());
  return tour;
}

TEST(Tiles, PartitionTheCitiesWithinTheSizeLimit) {
  for (const int64_t n : {7, 100, 800, 1001}) {
    const auto cities = random_cities(n, static_cast<uint32_t>(n));
    for (const int64_t k : {5, 10, 100}) {
      const auto tiles = tsp::spatial_tiles(cities, k);
      std::vector<int64_t> seen;
      for (const auto& tile : tiles) {
        EXPECT_LE(static_cast<int64_t>(tile.size()), k);
        EXPECT_GE(tile.size(), 3u);
        seen.insert(seen.end(), tile.begin(), tile.end());
      }
      std::sort(seen.begin(), seen.end());
      ASSERT_EQ(static_cast<int64_t>(seen.size()), n);
      for (int64_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], i);
      // Any tours of the tiles join into one tour of all cities.
      EXPECT_NO_THROW(tsp::check_tour(tsp::join_tile_tours(cities, tiles), n)) << n << " " << k;
    }
  }
  EXPECT_THROW((void)tsp::spatial_tiles(random_cities(10, 1), 4), std::invalid_argument);
}

TEST(Tiles, JoiningIsOptimalOverEveryOpeningAndDirection) {
  // 11 cities cut into tiles of 5, 3 and 3: with three tiles every visiting order
  // is the same cycle, so enumerating every opening of every tile gives the optimum.
  const auto cities = random_cities(11, 3);
  auto tiles = tsp::spatial_tiles(cities, 5);
  ASSERT_EQ(tiles.size(), 3u);
  const auto joined = tsp::join_tile_tours(cities, tiles);
  tsp::check_tour(joined, 11);
  double best = std::numeric_limits<double>::infinity();
  // Opening o < s: forwards from position o; o >= s: backwards from position o - s.
  const auto path = [&](const tsp::Tour& t, int64_t o) {
    const auto s = static_cast<int64_t>(t.size());
    tsp::Tour p;
    for (int64_t k = 0; k < s; ++k) p.push_back(o < s ? t[(o + k) % s] : t[(o + s - k) % s]);
    return p;
  };
  const auto options = [&](int64_t t) { return 2 * static_cast<int64_t>(tiles[t].size()); };
  for (int64_t a = 0; a < options(0); ++a) {
    for (int64_t b = 0; b < options(1); ++b) {
      for (int64_t c = 0; c < options(2); ++c) {
        tsp::Tour tour = path(tiles[0], a);
        for (const auto& part : {path(tiles[1], b), path(tiles[2], c)}) {
          tour.insert(tour.end(), part.begin(), part.end());
        }
        best = std::min(best, tsp::tour_length(cities, tour));
      }
    }
  }
  EXPECT_NEAR(tsp::tour_length(cities, joined), best, 1e-12);
}

TEST(Tiles, PolicyTilesGiveFeasibleToursThatArePermutationEquivariant) {
  torch::manual_seed(5);
  auto agent = test::eval_double_agent("tsp", 20);
  const auto& problem = agent->problem();
  agent->set_attention({nullptr, ScaleScope::all, 12, WindowParts{false, false, false, false, true}});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
  const int64_t n = 50;
  const Instances instances({{"coords", torch::rand({3, n, 2}, gen, torch::kDouble)}});
  const auto greedy = parse_decoding("greedy");
  const auto t = solve(*agent, instances, greedy, 2, gen);
  const auto checked = problem.check(instances, t.actions);  // throws when infeasible
  EXPECT_TRUE(torch::allclose(checked, t.cost.to(torch::kDouble), 1e-5, 1e-5));
  const auto perm = torch::randperm(n, gen);
  const Instances permuted({{"coords", instances.at("coords").index_select(1, perm)}});
  const auto mapped = perm.index({solve(*agent, permuted, greedy, 2, gen).actions});
  for (int64_t b = 0; b < 3; ++b) {
    const auto row = [&](const torch::Tensor& a) {
      const auto c = a[b].contiguous();
      return canonical(tsp::Tour(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + n));
    };
    EXPECT_EQ(row(mapped), row(t.actions)) << "instance " << b;
  }
  // multistart:K with tiles of fewer than K cities (tiles of 12 here) takes every city.
  for (const auto* strategy : {"sample:4", "aug8", "multistart:100", "multistart:100+aug8"}) {
    EXPECT_NO_THROW((void)problem.check(
        instances, solve(*agent, instances, parse_decoding(strategy), 2, gen).actions));
  }
  // A single rollout (as in training) does not tile: it refuses clearly.
  torch::NoGradGuard no_grad;
  EXPECT_THROW((void)agent->rollout(instances, Selection::greedy, std::nullopt),
               std::invalid_argument);
}

TEST(Tiles, ProblemsWithoutTilesAreRefusedClearly) {
  const auto problem = make_problem("cvrp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  agent->set_attention({nullptr, ScaleScope::all, 5, WindowParts{false, false, false, false, true}});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
  EXPECT_THROW((void)solve(*agent, problem->generate(2, 12, gen), parse_decoding("greedy"), 2, gen),
               std::invalid_argument);
}

}  // namespace
}  // namespace eie
