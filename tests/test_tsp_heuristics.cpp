#include <gtest/gtest.h>

#include <random>

#include "problems/tsp/heuristics.h"
#include "problems/tsp/local_search.h"
#include "tests/test_support.h"

namespace eie::tsp {
namespace {

using test::random_cities;

// Best gain of any 2-opt move, by brute force.
double best_two_opt_gain(const std::vector<Point>& c, const Tour& t) {
  const size_t n = t.size();
  double best = 0;
  for (size_t i = 0; i + 1 < n; ++i) {
    for (size_t j = i + 2; j < n; ++j) {
      const auto a = t[i], b = t[i + 1], x = t[j], y = t[(j + 1) % n];
      if (y == a) continue;
      best = std::max(best, distance(c[a], c[b]) + distance(c[x], c[y]) - distance(c[a], c[x]) -
                                distance(c[b], c[y]));
    }
  }
  return best;
}

TEST(TspHeuristics, ConstructionsAreToursOfKnownLengthOnASquare) {
  const std::vector<Point> square{{0, 0}, {1, 1}, {1, 0}, {0, 1}};
  for (const auto& tour : {nearest_neighbour(square), farthest_insertion(square)}) {
    check_tour(tour, 4);
    EXPECT_NEAR(tour_length(square, tour), 4.0, 1e-12);
  }
}

TEST(TspHeuristics, LocalSearchWithFullNeighbourListsIsTwoOptimal) {
  for (const bool or_opt : {false, true}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      const auto cities = random_cities(40, seed);
      const auto start = nearest_neighbour(cities);
      const auto improved = local_search(cities, start, or_opt, 39);
      check_tour(improved, 40);
      EXPECT_LE(tour_length(cities, improved), tour_length(cities, start) + 1e-12);
      EXPECT_LT(best_two_opt_gain(cities, improved), 1e-9) << "or_opt " << or_opt;
    }
  }
}

TEST(TspHeuristics, NeighbourListTwoOptImprovesLargeInstances) {
  const auto cities = random_cities(1000, 7);
  const auto start = nearest_neighbour(cities);
  const auto improved = two_opt(cities, start);
  check_tour(improved, 1000);
  // NN is ~25% above optimal on uniform instances, 2-opt ~5%.
  EXPECT_LT(tour_length(cities, improved), 0.9 * tour_length(cities, start));
}

TEST(TspHeuristics, LocalSearchKeepsSmallToursValid) {
  // Down to five cities, where Or-opt has only one or two segment lengths left.
  for (int64_t n = 5; n <= 8; ++n) {
    for (unsigned seed = 0; seed < 10; ++seed) {
      const auto cities = random_cities(n, seed);
      const auto start = nearest_neighbour(cities);
      for (const bool or_opt : {false, true}) {
        const auto improved = local_search(cities, start, or_opt);
        check_tour(improved, n);
        EXPECT_LE(tour_length(cities, improved), tour_length(cities, start) + 1e-12);
      }
    }
  }
}

TEST(TspHeuristics, OrOptMovesShortenTwoOptimalTours) {
  // From 2-opt local optima, segment moves still find gains (about 2-3% here).
  double two_opt_total = 0, or_opt_total = 0;
  for (unsigned seed = 0; seed < 5; ++seed) {
    const auto cities = random_cities(300, seed);
    const auto start = two_opt(cities, nearest_neighbour(cities));
    const auto improved = local_search(cities, start, true);
    check_tour(improved, 300);
    two_opt_total += tour_length(cities, start);
    or_opt_total += tour_length(cities, improved);
  }
  EXPECT_LT(or_opt_total, 0.99 * two_opt_total) << or_opt_total / two_opt_total;
}

// The optimal tour length by Held-Karp's dynamic programme over subsets (n <= 12).
double optimal_length(const std::vector<Point>& c) {
  const size_t n = c.size(), subsets = size_t{1} << (n - 1);
  // best[S][j]: shortest path from city n-1 through the cities of S (bits 0..n-2), ending at j.
  std::vector<std::vector<double>> best(subsets, std::vector<double>(n - 1, 1e300));
  for (size_t j = 0; j + 1 < n; ++j) best[size_t{1} << j][j] = distance(c[n - 1], c[j]);
  for (size_t set = 1; set < subsets; ++set) {
    for (size_t j = 0; j + 1 < n; ++j) {
      if (!(set >> j & 1) || best[set][j] >= 1e300) continue;
      for (size_t k = 0; k + 1 < n; ++k) {
        if (set >> k & 1) continue;
        auto& to = best[set | size_t{1} << k][k];
        to = std::min(to, best[set][j] + distance(c[j], c[k]));
      }
    }
  }
  double shortest = 1e300;
  for (size_t j = 0; j + 1 < n; ++j) {
    shortest = std::min(shortest, best[subsets - 1][j] + distance(c[j], c[n - 1]));
  }
  return shortest;
}

TEST(TspHeuristics, IteratedSearchFindsTheOptimumOfSmallInstances) {
  for (unsigned seed = 0; seed < 5; ++seed) {
    const auto cities = random_cities(11, seed);
    const auto tour = iterated_search(cities, nearest_neighbour(cities), 0.2, seed);
    check_tour(tour, 11);
    EXPECT_NEAR(tour_length(cities, tour), optimal_length(cities), 1e-9) << "seed " << seed;
  }
}

TEST(TspHeuristics, IteratedSearchIsNoWorseThanItsDescentAndBetterGivenTime) {
  for (const int64_t n : {8, 9, 300}) {
    const auto cities = random_cities(n, 3);
    const auto start = nearest_neighbour(cities);
    const double descent = tour_length(cities, local_search(cities, start, true));
    const auto at_once = iterated_search(cities, start, 0, 1);
    check_tour(at_once, n);
    EXPECT_NEAR(tour_length(cities, at_once), descent, 1e-9) << n;  // no time: the descent
    const auto searched = iterated_search(cities, start, 0.5, 1);
    check_tour(searched, n);
    EXPECT_LE(tour_length(cities, searched), descent + 1e-9) << n;
    if (n == 300) {
      EXPECT_LT(tour_length(cities, searched), 0.98 * descent);
    }
  }
}

TEST(TspHeuristics, UnknownMethodIsRejected) {
  EXPECT_THROW((void)construct_all("christofides", {random_cities(5, 1)}), std::invalid_argument);
}

}  // namespace
}  // namespace eie::tsp

namespace eie {
namespace {

TEST(UnitSquare, AspectPreservedAndShorterSideCentred) {
  const auto unit = fit_unit_square({{10, 5}, {30, 5}, {20, 15}});  // 20 wide, 10 high
  EXPECT_DOUBLE_EQ(unit[0].x, 0.0);
  EXPECT_DOUBLE_EQ(unit[1].x, 1.0);
  EXPECT_DOUBLE_EQ(unit[0].y, 0.25);
  EXPECT_DOUBLE_EQ(unit[2].y, 0.75);
  EXPECT_DOUBLE_EQ(unit[2].x, 0.5);
}

}  // namespace
}  // namespace eie
