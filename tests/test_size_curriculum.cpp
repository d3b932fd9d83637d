// A size curriculum draws each step's size uniformly from its range, the same for
// every caller with the same seed, and shrinks the step's batch with n^2.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "src/train/size_curriculum.h"

namespace eie {
namespace {

TEST(SizeCurriculum, StepSizesCoverTheRangeUniformlyAndDependOnTheSeedAlone) {
  const SizeRange range{50, 200};
  std::map<int64_t, int> seen;
  double sum = 0;
  int draws = 0;
  for (int64_t epoch = 0; epoch < 200; ++epoch) {
    for (int64_t step = 0; step < 10; ++step, ++draws) {
      const auto n = step_size(range, 7, epoch, step);
      ASSERT_GE(n, 50);
      ASSERT_LE(n, 200);
      EXPECT_EQ(n, step_size(range, 7, epoch, step));  // a rank or a resumed run agrees
      ++seen[n];
      sum += static_cast<double>(n);
    }
  }
  EXPECT_EQ(seen.begin()->first, 50);
  EXPECT_EQ(seen.rbegin()->first, 200);
  EXPECT_GT(seen.size(), 140u);          // 2,000 draws over 151 sizes
  EXPECT_NEAR(sum / draws, 125.0, 4.0);  // the uniform mean; its std error is ~1
  int differ = 0;
  for (int64_t step = 0; step < 10; ++step) {
    differ += step_size(range, 7, 0, step) != step_size(range, 8, 0, step);
  }
  EXPECT_GE(differ, 8);
  EXPECT_EQ(step_size({30, 30}, 7, 3, 4), 30);
}

TEST(SizeCurriculum, BatchShrinksWithTheSquareOfTheSizeInSharesOfTheWorld) {
  EXPECT_EQ(step_batch(64, 100, 100, 1), 64);
  EXPECT_EQ(step_batch(64, 100, 200, 1), 16);
  EXPECT_EQ(step_batch(64, 100, 50, 1), 256);
  EXPECT_EQ(step_batch(64, 100, 10000, 1), 1);  // at least one instance
  EXPECT_EQ(step_batch(64, 100, 10000, 4), 4);  // at least one per rank
  for (int64_t n = 50; n <= 200; ++n) {
    for (int64_t world : {1, 2, 3}) {
      const auto b = step_batch(64, 100, n, world);
      EXPECT_EQ(b % world, 0) << n << " " << world;
      // The batch's n^2 (a decode's memory) stays within rounding of 64 x 100^2.
      const double exact = 64.0 * 100 * 100 / static_cast<double>(n * n);
      EXPECT_NEAR(static_cast<double>(b) / exact, 1.0,
                  0.5 * static_cast<double>(world) / exact + 1e-9)
          << n << " " << world;
    }
  }
}

TEST(SizeCurriculum, RangesParse) {
  const auto r = parse_size_range("50-200");
  EXPECT_EQ(r.min, 50);
  EXPECT_EQ(r.max, 200);
  EXPECT_FALSE(r.empty());
  EXPECT_TRUE(SizeRange{}.empty());
  EXPECT_EQ(parse_size_range("7-7").max, 7);
  for (const char* bad : {"200-50", "2-10", "50", "a-b", "50-", "-5-10", "50-200-300", ""}) {
    EXPECT_THROW((void)parse_size_range(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace eie
