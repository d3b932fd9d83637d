#include <gtest/gtest.h>

#include <cmath>

#include "src/attention/scale_policy.h"

namespace eie {
namespace {

double lambda(const std::string& name, int64_t n, int64_t d = 16, int64_t N = 100) {
  return make_scale_policy(name)->lambda({n, d, N});
}

TEST(ScalePolicy, ClosedFormsMatchHandComputedValues) {
  EXPECT_DOUBLE_EQ(lambda("sqrt", 1600), 0.25);
  EXPECT_NEAR(lambda("logn-sqrt", 100), 1.1512925, 1e-6);   // ln 100 / 4
  EXPECT_NEAR(lambda("logn-d", 1600), 0.4611099, 1e-6);     // ln 1600 / 16
  EXPECT_NEAR(lambda("logn-base", 1600), 0.4005150, 1e-6);  // 0.25 * ln 1600 / ln 100
  // InfoScale: sqrt((1 - 1600^-0.125) / (1 - 100^-0.125)) / 4.
  EXPECT_NEAR(lambda("infoscale", 1600),
              0.25 * std::sqrt((1 - std::pow(1600, -0.125)) / (1 - std::pow(100, -0.125))), 1e-12);
  EXPECT_NEAR(lambda("infoscale", 1600), 0.2932932, 1e-6);
}

TEST(ScalePolicy, NormalisedPoliciesGiveInverseSqrtDAtTrainingLength) {
  for (const auto* name : {"sqrt", "logn-base", "infoscale"}) {
    EXPECT_NEAR(lambda(name, 100), 0.25, 1e-12) << name;
    EXPECT_NEAR(lambda(name, 120, 32, 120), 1 / std::sqrt(32.0), 1e-12) << name;
  }
}

TEST(ScalePolicy, GrowsWithLengthExceptSqrt) {
  for (const auto& name : scale_policy_names()) {
    if (name == "sqrt" || name == "eie") continue;  // eie needs a scale file
    EXPECT_GT(lambda(name, 1600), lambda(name, 200)) << name;
  }
}

TEST(ScalePolicy, PlanAppliesToEncoderOrAll) {
  const auto policy = make_scale_policy("logn-d");
  const auto enc = plan_attention(*policy, ScaleScope::encoder, {1600, 16, 100}, 3);
  ASSERT_EQ(enc.encoder.size(), 3u);
  EXPECT_NEAR(enc.encoder[2].scale, 0.4611099, 1e-6);
  EXPECT_DOUBLE_EQ(enc.glimpse.scale, 0.25);
  const auto all = plan_attention(*policy, ScaleScope::all, {1600, 16, 100}, 3);
  EXPECT_NEAR(all.glimpse.scale, 0.4611099, 1e-6);
}

TEST(ScalePolicy, BadNamesAndScopesAreRejected) {
  EXPECT_THROW((void)make_scale_policy("cubic"), std::invalid_argument);
  EXPECT_THROW((void)make_scale_policy("sqrt:file.h5"), std::invalid_argument);
  EXPECT_THROW((void)parse_scale_scope("pointer"), std::invalid_argument);
}

}  // namespace
}  // namespace eie
