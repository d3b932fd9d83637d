// The grid's nearest points equal a brute-force search, on spread, clustered,
// collinear and repeated points, with points removed as the nearest-neighbour tour
// removes them.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "problems/common/point_grid.h"
#include "tests/test_support.h"

namespace eie {
namespace {

std::vector<std::vector<Point>> point_sets() {
  std::mt19937 rng(4);
  std::normal_distribution<double> normal(0, 1);
  std::vector<Point> clustered, line, repeated;
  for (int i = 0; i < 500; ++i) {
    const double centre = (i % 5) * 10.0;
    clustered.push_back({centre + 0.01 * normal(rng), centre + 0.01 * normal(rng)});
    line.push_back({static_cast<double>(rng() % 1000), 3.0});
    repeated.push_back({static_cast<double>(rng() % 3), static_cast<double>(rng() % 3)});
  }
  return {test::random_cities(600, 1), clustered, line, repeated, {{0.5, 0.5}}};
}

// The distances of the k nearest to point i by brute force, nearest first.
std::vector<double> brute_distances(const std::vector<Point>& points, const std::vector<bool>& in,
                                    const Point& p, int64_t skip, int64_t k) {
  std::vector<double> d;
  for (size_t j = 0; j < points.size(); ++j) {
    if (in[j] && static_cast<int64_t>(j) != skip) d.push_back(distance(p, points[j]));
  }
  std::sort(d.begin(), d.end());
  d.resize(std::min<size_t>(d.size(), k));
  return d;
}

TEST(PointGrid, NearestPointsEqualABruteForceSearch) {
  for (const auto& points : point_sets()) {
    const PointGrid grid(points);
    const std::vector<bool> all(points.size(), true);
    for (size_t i = 0; i < points.size(); i += 7) {
      const auto found = grid.nearest(static_cast<int64_t>(i), 10);
      const auto expected = brute_distances(points, all, points[i], static_cast<int64_t>(i), 10);
      ASSERT_EQ(found.size(), expected.size());
      for (size_t j = 0; j < found.size(); ++j) {
        EXPECT_EQ(distance(points[i], points[found[j]]), expected[j]) << "point " << i;
        EXPECT_NE(found[j], static_cast<int64_t>(i));
      }
    }
  }
}

TEST(PointGrid, RemovedPointsAreNeverFound) {
  for (const auto& points : point_sets()) {
    PointGrid grid(points);
    std::vector<bool> in(points.size(), true);
    int64_t here = 0;
    for (size_t step = 0; step < points.size(); ++step) {
      grid.remove(here);
      in[here] = false;
      const int64_t next = grid.nearest_to(points[here]);
      if (step + 1 == points.size()) {
        EXPECT_EQ(next, -1);
        break;
      }
      ASSERT_GE(next, 0);
      ASSERT_TRUE(in[next]);
      EXPECT_EQ(distance(points[here], points[next]),
                brute_distances(points, in, points[here], -1, 1).front());
      here = next;
    }
  }
}

}  // namespace
}  // namespace eie
