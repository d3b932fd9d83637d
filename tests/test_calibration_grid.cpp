// Calibrations at any size from a grid: the grid sizes a size needs, and values
// interpolated between them (scales in log value, betas linearly), exact on the grid.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "src/agent/calibration_cache.h"

namespace eie {
namespace {

TEST(CalibrationGrid, NamesTheGridSizesAroundEachSize) {
  EXPECT_EQ(grid_neighbours(100, 100), (std::vector<int64_t>{100}));
  EXPECT_EQ(grid_neighbours(100, 101), (std::vector<int64_t>{100, 141}));
  EXPECT_EQ(grid_neighbours(100, 141), (std::vector<int64_t>{141}));
  EXPECT_EQ(grid_neighbours(100, 150), (std::vector<int64_t>{141, 200}));
  EXPECT_EQ(grid_neighbours(100, 1600), (std::vector<int64_t>{1600}));
  EXPECT_EQ(grid_neighbours(100, 1999), (std::vector<int64_t>{1600, 2263}));
  EXPECT_EQ(grid_neighbours(100, 60), (std::vector<int64_t>{50, 71}));
  EXPECT_EQ(grid_neighbours(100, 2), (std::vector<int64_t>{2}));
  // Every size lies between its neighbours, and they are grid sizes of their own.
  for (int64_t n = 2; n <= 5000; n += 7) {
    const auto around = grid_neighbours(100, n);
    ASSERT_FALSE(around.empty());
    EXPECT_LE(around.front(), n);
    EXPECT_GE(around.back(), n);
    for (const auto g : around) EXPECT_EQ(grid_neighbours(100, g), (std::vector<int64_t>{g}));
  }
}

TEST(CalibrationGrid, InterpolatesInLogSizeAndIsExactOnTheGrid) {
  const LayerTable table{{100, {{0.25, 0.25}, 0.25, 0.0}}, {141, {{0.5, 1.0}, 0.25, 8.0}}};
  const auto on_grid = interpolate(table, 100, 141, true);
  EXPECT_EQ(on_grid.encoder, table.at(141).encoder);
  const double t = std::log(120.0 / 100) / std::log(141.0 / 100);
  const auto scales = interpolate(table, 100, 120, true);
  EXPECT_NEAR(scales.encoder[0], 0.25 * std::pow(2.0, t), 1e-12);  // geometric in the value
  EXPECT_NEAR(scales.encoder[1], 0.25 * std::pow(4.0, t), 1e-12);
  EXPECT_DOUBLE_EQ(scales.glimpse, 0.25);
  const auto betas = interpolate(table, 100, 120, false);
  EXPECT_NEAR(betas.pointer, 8.0 * t, 1e-12);  // linear, from 0
  EXPECT_NEAR(betas.encoder[1], 0.25 + 0.75 * t, 1e-12);
  // A size next to N is next to N's values: the continuity a policy needs at N + 1.
  const auto next = interpolate(table, 100, 101, true);
  EXPECT_NEAR(next.encoder[1], 0.25, 0.25 * 0.05);
  // A missing neighbour is not guessed.
  EXPECT_THROW((void)interpolate(table, 100, 150, true), std::out_of_range);
}

}  // namespace
}  // namespace eie
