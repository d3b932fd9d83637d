#include <gtest/gtest.h>

#include "problems/tsp/tsplib.h"
#include "tests/test_support.h"

namespace eie::tsp {
namespace {

TEST(Tsplib, ReadsKroA100FromShared) {
  EIE_REQUIRE_SHARED();
  const auto instance = read_tsplib(test::shared_dir() / "instances/kroA100.tsp");
  EXPECT_EQ(instance.name, "kroA100");
  EXPECT_EQ(instance.edge_weight, EdgeWeight::euc_2d);
  ASSERT_EQ(instance.cities.size(), 100u);
  EXPECT_DOUBLE_EQ(instance.cities[0].x, 1380);
  EXPECT_DOUBLE_EQ(instance.cities[1].y, 96);
}

TEST(Tsplib, DistanceConventions) {
  const Point a{0, 0}, b{3, 4.4};  // Euclidean 5.4457
  EXPECT_EQ(tsplib_distance(EdgeWeight::euc_2d, a, b), 5);
  EXPECT_EQ(tsplib_distance(EdgeWeight::ceil_2d, a, b), 6);
  // ATT: r = sqrt((9 + 19.36) / 10) = 1.684; nint 2 >= r, so 2.
  EXPECT_EQ(tsplib_distance(EdgeWeight::att, a, b), 2);
  // ATT rounding up: r = sqrt(250/10) = 5 exactly -> 5; r = sqrt(260/10) = 5.099 -> 6.
  EXPECT_EQ(tsplib_distance(EdgeWeight::att, a, Point{15, 5}), 5);
  EXPECT_EQ(tsplib_distance(EdgeWeight::att, a, Point{16, 2}), 6);
}

TEST(Tsplib, ParsesInlineTextWithBlankLinesAndSpacing) {
  const auto instance = parse_tsplib(
      "NAME: square\nCOMMENT : four corners\nTYPE: TSP\nDIMENSION:4\nEDGE_WEIGHT_TYPE:CEIL_2D\n"
      "NODE_COORD_SECTION\n 4 0 10\n1 0 0\n\n2 10 0\n3 10 10\n",
      "inline");
  EXPECT_EQ(instance.name, "square");
  EXPECT_EQ(tsplib_length(instance, {0, 1, 2, 3}), 40);
  EXPECT_EQ(tsplib_length(instance, {0, 2, 1, 3}), 50);  // crossing: 2 * ceil(14.14) + 20
}

TEST(Tsplib, TourRoundTrip) {
  const auto dir = test::scratch_dir("tour");
  const Tour tour{2, 0, 3, 1, 4};
  write_tour(dir / "a.tour", "a", tour, 17);
  EXPECT_EQ(read_tour(dir / "a.tour"), tour);
}

TEST(Tsplib, LengthRejectsInvalidTour) {
  const auto instance = parse_tsplib(
      "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n", "t");
  EXPECT_THROW((void)tsplib_length(instance, {0, 1, 1}), std::logic_error);
  EXPECT_THROW((void)tsplib_length(instance, {0, 1}), std::logic_error);
}

struct BrokenCase {
  const char* file;     // in tests/data/broken
  const char* message;  // expected part of the error
};
// Names the case by its file in test listings (gtest would print the pointers' bytes).
void PrintTo(const BrokenCase& c, std::ostream* os) { *os << c.file; }

class BrokenTsplib : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenTsplib, RejectedWithALocatedMessage) {
  const auto path = std::filesystem::path(EIE_TEST_DATA) / "broken" / GetParam().file;
  try {
    (void)read_tsplib(path);
    FAIL() << "accepted " << path;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(GetParam().message), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().file), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, BrokenTsplib,
    ::testing::Values(BrokenCase{"truncated.tsp", "truncated: 3 of 5"},
                      BrokenCase{"non_numeric.tsp", ":7: x: expected a number, got 'one'"},
                      BrokenCase{"unsupported_weight.tsp", "GEO is not supported"},
                      BrokenCase{"explicit_matrix.tsp", "EXPLICIT is not supported"},
                      BrokenCase{"nan_coords.tsp", ":7: coordinates must be finite"},
                      BrokenCase{"duplicate_id.tsp", ":7: duplicate node id 1"},
                      BrokenCase{"too_small.tsp", "DIMENSION must be at least 3"},
                      BrokenCase{"no_dimension.tsp", "NODE_COORD_SECTION before DIMENSION"}));

}  // namespace
}  // namespace eie::tsp
