// Generated point layouts: uniform draws what generation drew before the option, every
// layout stays in the unit square and repeats with its seed, clusters are denser than
// uniform points, elongated ones lie in centred rectangles, and `varied` mixes layouts
// across instances.
#include <gtest/gtest.h>

#include "problems/common/point.h"
#include "problems/common/point_distribution.h"
#include "problems/common/rotated_points.h"
#include "src/problem/registry.h"

namespace eie {
namespace {

torch::Tensor points(PointDistribution distribution, int64_t count, int64_t n, uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return generate_points(count, n, distribution, generator);
}

// Mean distance from each point to its nearest other point, per instance [count].
torch::Tensor nearest_distance(const torch::Tensor& p) {
  const auto d = torch::cdist(p, p) + torch::eye(p.size(1)).unsqueeze(0) * 1e9;
  return std::get<0>(d.min(2)).mean(1);
}

constexpr PointDistribution kAll[] = {PointDistribution::uniform, PointDistribution::clustered,
                                      PointDistribution::mixed, PointDistribution::elongated,
                                      PointDistribution::varied};

TEST(PointDistribution, UniformIsTheDrawOfDatasetsBeforeTheOption) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(7);
  EXPECT_TRUE(torch::equal(points(PointDistribution::uniform, 4, 50, 7),
                           torch::rand({4, 50, 2}, generator)));
}

TEST(PointDistribution, EveryLayoutStaysInTheSquareAndRepeatsWithItsSeed) {
  for (const auto distribution : kAll) {
    const auto name = to_string(distribution);
    EXPECT_EQ(parse_point_distribution(name), distribution);
    const auto p = points(distribution, 16, 100, 3);
    EXPECT_EQ(p.sizes(), (std::vector<int64_t>{16, 100, 2})) << name;
    EXPECT_EQ(p.scalar_type(), torch::kFloat) << name;
    EXPECT_GE(p.min().item<float>(), 0) << name;
    EXPECT_LE(p.max().item<float>(), 1) << name;
    EXPECT_TRUE(torch::equal(p, points(distribution, 16, 100, 3))) << name;
    EXPECT_FALSE(torch::equal(p, points(distribution, 16, 100, 4))) << name;
  }
}

TEST(PointDistribution, ClustersAreDenserThanUniformPoints) {
  const double uniform =
      nearest_distance(points(PointDistribution::uniform, 8, 200, 1)).mean().item<double>();
  const double clustered =
      nearest_distance(points(PointDistribution::clustered, 8, 200, 1)).mean().item<double>();
  const double mixed =
      nearest_distance(points(PointDistribution::mixed, 8, 200, 1)).mean().item<double>();
  EXPECT_LT(clustered, 0.6 * uniform);
  EXPECT_LT(clustered, mixed);
  EXPECT_LT(mixed, uniform);
}

TEST(PointDistribution, VariedMixesLayoutsAcrossInstances) {
  const auto p = points(PointDistribution::varied, 64, 200, 2);
  const auto nearest = nearest_distance(p);
  const auto uniform = nearest_distance(points(PointDistribution::uniform, 64, 200, 2));
  EXPECT_GT(nearest.std().item<double>(), 3 * uniform.std().item<double>());
  // Some instance lies in a rectangle much shorter than the square in one direction.
  const auto extent = std::get<0>((std::get<0>(p.max(1)) - std::get<0>(p.min(1))).min(1));
  EXPECT_LT(extent.min().item<float>(), 0.6);
}

// Each instance spans the square one way and a centred band of a quarter to all of it the
// other way; both ways round occur.
TEST(PointDistribution, ElongatedInstancesLieInCentredRectanglesEitherWayRound) {
  const auto p = points(PointDistribution::elongated, 64, 400, 6);
  const auto low = std::get<0>(p.min(1)), high = std::get<0>(p.max(1));  // [64, 2]
  const auto extent = high - low;
  const auto long_axis = extent.argmax(1);
  const auto short_extent = std::get<0>(extent.min(1));
  EXPECT_GT(std::get<0>(extent.max(1)).min().item<float>(), 0.97);
  EXPECT_GT(short_extent.min().item<float>(), 0.2);
  EXPECT_LT(short_extent.max().item<float>(), 1.0);
  EXPECT_GT(short_extent.std().item<float>(), 0.1);  // aspects spread over 1:1 to 4:1
  const auto short_centre = ((low + high) / 2).gather(1, (1 - long_axis).unsqueeze(1));
  EXPECT_LT((short_centre - 0.5).abs().max().item<float>(), 0.05);
  const int64_t wide = long_axis.eq(0).sum().item<int64_t>();
  EXPECT_GT(wide, 16);
  EXPECT_LT(wide, 48);
}

TEST(PointDistribution, UnknownNamesAreRefusedNamingTheValues) {
  try {
    (void)parse_point_distribution("grid");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "distribution: expected uniform, clustered, mixed, elongated or varied, got 'grid'");
  }
}

// The option reaches the routing problems' generators, and instances of the default
// are what they were.
TEST(PointDistribution, RoutingProblemsGenerateWithIt) {
  for (const auto* problem : {"tsp", "cvrp"}) {
    auto g1 = at::make_generator<at::CPUGeneratorImpl>(5);
    auto g2 = at::make_generator<at::CPUGeneratorImpl>(5);
    const auto plain = make_problem(problem)->generate(8, 100, g1).at("coords");
    const auto clustered =
        make_problem(problem, {{"distribution", "clustered"}})->generate(8, 100, g2).at("coords");
    EXPECT_TRUE(torch::equal(plain, points(PointDistribution::uniform, 8, 100, 5))) << problem;
    EXPECT_LT(nearest_distance(clustered).mean().item<double>(),
              0.6 * nearest_distance(plain).mean().item<double>())
        << problem;
  }
}

// A rotated view is the instance turned and scaled, each instance by its own factor,
// into the square: its longer side spanning it, the shorter one centred.
TEST(RotatedPoints, TurnAndScaleEachInstanceIntoTheSquare) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(5);
  const auto p = torch::rand({4, 20, 2}, generator, torch::kDouble) * 0.6 + 0.1;
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{0, 1}, {-1, 1}}) {
    for (const double radians : {0.0, 0.3, 1.2}) {
      const auto v = rotated_into_square(p, radians, lo, hi);
      const auto low = std::get<0>(v.min(1)), high = std::get<0>(v.max(1));  // [4, 2]
      EXPECT_GE(low.min().item<double>(), lo - 1e-12);
      EXPECT_LE(high.max().item<double>(), hi + 1e-12);
      EXPECT_TRUE(torch::allclose(std::get<0>((high - low).max(1)),
                                  torch::full({4}, hi - lo, torch::kDouble)));
      EXPECT_TRUE(
          torch::allclose((low + high) / 2, torch::full({4, 2}, (lo + hi) / 2, torch::kDouble)));
      // Distances scaled by one factor per instance: the shape is kept.
      const auto ratio = torch::cdist(v, v) / torch::cdist(p, p);
      const auto off_diagonal = torch::eye(20, torch::kBool).logical_not();
      for (int64_t b = 0; b < 4; ++b) {
        const auto r = ratio[b].masked_select(off_diagonal);
        EXPECT_NEAR(r.max().item<double>(), r.min().item<double>(), 1e-9) << radians;
      }
      // Unturned into the unit square: what the file readers' fit_unit_square() makes.
      if (radians == 0.0 && lo == 0) {
        for (int64_t b = 0; b < 4; ++b) {
          std::vector<Point> cities;
          for (int64_t i = 0; i < 20; ++i) {
            cities.push_back({p[b][i][0].item<double>(), p[b][i][1].item<double>()});
          }
          const auto fitted = fit_unit_square(cities);
          for (int64_t i = 0; i < 20; ++i) {
            EXPECT_NEAR(v[b][i][0].item<double>(), fitted[static_cast<size_t>(i)].x, 1e-12);
            EXPECT_NEAR(v[b][i][1].item<double>(), fitted[static_cast<size_t>(i)].y, 1e-12);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace eie
