// The shipped scale files: the EIE network fits the exact roots within 0.02 on
// the whole grid, and a scale file is refused for another d, N or beyond N_max.
#include <gtest/gtest.h>

#include "src/attention/scale_fit.h"
#include "src/attention/scale_policy.h"

namespace eie {
namespace {

const std::filesystem::path kScales = std::filesystem::path(EIE_SOURCE_DIR) / "results/scales";

class ShippedScaleFile : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedScaleFile, NetworkFitsExactRoots) {
  auto file = read_scale_file(kScales / GetParam());
  torch::NoGradGuard no_grad;
  const auto fitted = file.network(torch::tensor(file.grid, torch::kDouble));
  for (size_t i = 0; i < file.grid.size(); ++i) {
    EXPECT_NEAR(fitted[i].item<double>(), file.exact[i], 0.02) << "n = " << file.grid[i];
  }
  const auto& o = file.network->options();
  EXPECT_NEAR(fitted[0].item<double>(), 1 / std::sqrt(double(o.head_dim)), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Files, ShippedScaleFile,
                         ::testing::Values("d16-N100-N1600.h5", "d32-N120-N1920.h5"));

TEST(ScaleFile, EieAndTabulatedExactAgreeWithTheFileAndRefuseMismatches) {
  const auto path = (kScales / "d16-N100-N1600.h5").string();
  const auto eie = make_scale_policy("eie:" + path);
  const auto exact = make_scale_policy("eie-exact:" + path);
  EXPECT_NEAR(eie->lambda({1600, 16, 100}), exact->lambda({1600, 16, 100}), 0.02);
  EXPECT_NEAR(exact->lambda({1600, 16, 100}), 0.708, 0.01);
  EXPECT_THROW((void)eie->lambda({800, 32, 100}), std::invalid_argument);   // other d
  EXPECT_THROW((void)eie->lambda({800, 16, 120}), std::invalid_argument);   // other N
  EXPECT_THROW((void)eie->lambda({3200, 16, 100}), std::invalid_argument);  // beyond N_max
  EXPECT_THROW((void)make_scale_policy("eie"), std::invalid_argument);      // no file
  EXPECT_THROW((void)make_scale_policy("eie:/nonexistent.h5"), std::invalid_argument);
}

}  // namespace
}  // namespace eie
