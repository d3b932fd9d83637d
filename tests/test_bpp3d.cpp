#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <tuple>

#include "problems/bpp3d/block_fit.h"
#include "problems/bpp3d/box.h"
#include "problems/bpp3d/bpp_file.h"
#include "problems/bpp3d/height_map.h"
#include "problems/bpp3d/heuristic.h"
#include "problems/bpp3d/packing.h"
#include "tests/test_support.h"

namespace eie::bpp3d {
namespace {

// Resting height by definition: the maximum over the footprint.
int32_t brute_resting(const HeightMap& map, int x, int y, int a, int b) {
  int32_t z = 0;
  for (int i = x; i < x + a; ++i) {
    for (int j = y; j < y + b; ++j) z = std::max(z, map.at(i, j));
  }
  return z;
}

// A height map of random boxes dropped at random positions.
HeightMap random_map(int L, int W, int boxes, std::mt19937_64& rng) {
  HeightMap map(L, W);
  for (int k = 0; k < boxes; ++k) {
    const int a = 1 + int(rng() % L), b = 1 + int(rng() % W);
    const int x = int(rng() % (L - a + 1)), y = int(rng() % (W - b + 1));
    (void)map.place(x, y, a, b, 1 + int(rng() % 20));
  }
  return map;
}

// Footprint a x b over the map equals the brute force at valid positions, kInvalid elsewhere.
void expect_brute_force(const HeightMap& map, int a, int b, const int32_t* out) {
  const int L = map.length(), W = map.width();
  for (int x = 0; x < L; ++x) {
    for (int y = 0; y < W; ++y) {
      const int32_t expected =
          map.fits(x, y, a, b) ? brute_resting(map, x, y, a, b) : HeightMap::kInvalid;
      ASSERT_EQ(out[x * W + y], expected) << "footprint " << a << " x " << b << " at (" << x << ", "
                                          << y << ") on " << L << " x " << W;
    }
  }
}

TEST(Bpp3dBox, OrientationsAreTheSixPermutationsInTheDocumentedOrder) {
  const Box box{2, 3, 5};
  const auto all = orientations(box);
  const std::array<Extents, 6> expected = {
      {{2, 3, 5}, {3, 2, 5}, {2, 5, 3}, {5, 2, 3}, {3, 5, 2}, {5, 3, 2}}};
  EXPECT_EQ(all, expected);
  std::set<std::tuple<int, int, int>> distinct;
  for (const auto& e : all) {
    std::array<int, 3> sides{e.dx, e.dy, e.dz};
    std::sort(sides.begin(), sides.end());
    EXPECT_EQ(sides, (std::array<int, 3>{2, 3, 5}));
    distinct.insert({e.dx, e.dy, e.dz});
  }
  EXPECT_EQ(distinct.size(), 6u);
  EXPECT_THROW((void)oriented(box, 6), std::out_of_range);
  EXPECT_THROW((void)oriented(box, -1), std::out_of_range);
}

TEST(Bpp3dBox, ValidateNamesTheOffendingField) {
  BppData data{120, 100, {{10, 10, 10}, {130, 110, 125}}};
  try {
    data.validate();
    FAIL() << "accepted a box that fits in no orientation";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "box 1 (130 x 110 x 125) fits the 120 x 100 base in no orientation");
  }
  data.boxes[1] = {60, 130, 70};  // fits as 60 x 70, 130 tall
  EXPECT_NO_THROW(data.validate());
  data.boxes[1] = {60, 0, 70};
  EXPECT_THROW(data.validate(), std::invalid_argument);
  data.boxes.clear();
  EXPECT_THROW(data.validate(), std::invalid_argument);
  EXPECT_THROW((BppData{0, 100, {{1, 1, 1}}}.validate()), std::invalid_argument);
  EXPECT_THROW((BppData{120, -1, {{1, 1, 1}}}.validate()), std::invalid_argument);
}

TEST(Bpp3dBox, GeneratorsFollowTheirProtocolsAndDrawOrder) {
  const auto eie = random_instance(eie_protocol(), 200, 7);
  EXPECT_EQ(eie.length, 120);
  EXPECT_EQ(eie.width, 100);
  ASSERT_EQ(eie.boxes.size(), 200u);
  std::set<int> sides;
  for (const auto& box : eie.boxes) {
    for (const int s : {box.l, box.w, box.h}) {
      EXPECT_GE(s, 10);
      EXPECT_LE(s, 50);
      sides.insert(s);
    }
  }
  EXPECT_EQ(sides.size(), 41u);  // 600 draws cover all of 10..50
  // Documented draw order: box 0's l, w, h, then box 1's, ...
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(eie.boxes[i].l, 10 + int(rng() % 41));
    EXPECT_EQ(eie.boxes[i].w, 10 + int(rng() % 41));
    EXPECT_EQ(eie.boxes[i].h, 10 + int(rng() % 41));
  }
  const auto again = random_instance(eie_protocol(), 200, 7);
  EXPECT_EQ(again.boxes[199].h, eie.boxes[199].h);

  std::mt19937_64 stream(3);
  const auto a2p = random_instance(attend2pack_protocol(), 100, stream);
  EXPECT_EQ(a2p.length, 100);
  EXPECT_EQ(a2p.width, 100);
  for (const auto& box : a2p.boxes) {
    EXPECT_GE(std::min({box.l, box.w, box.h}), 20);
    EXPECT_LE(std::max({box.l, box.w, box.h}), 80);
  }
  EXPECT_THROW((void)random_instance(eie_protocol(), 0, 1), std::invalid_argument);
  EXPECT_THROW((void)random_instance(Protocol{40, 40, 10, 50}, 5, 1), std::invalid_argument);
}

TEST(Bpp3dHeightMap, ResultingHeightsEqualBruteForce) {
  std::mt19937_64 rng(11);
  std::vector<int32_t> out;
  for (int trial = 0; trial < 400; ++trial) {
    const int L = 1 + int(rng() % 40), W = 1 + int(rng() % 40);
    const auto map = random_map(L, W, int(rng() % 30), rng);
    for (int k = 0; k < 6; ++k) {
      // Edge footprints every few cases: a = L, b = W, and 1.
      int a = 1 + int(rng() % L), b = 1 + int(rng() % W);
      if (k == 0) a = L;
      if (k == 1) b = W;
      if (k == 2) a = 1, b = W;
      map.resulting_heights(a, b, out);
      ASSERT_EQ(out.size(), size_t(L) * W);
      expect_brute_force(map, a, b, out.data());
      if (HasFatalFailure()) return;
    }
  }
}

// The lowest rest of footprint a x b in whole blocks, by brute force over block corners.
int32_t brute_block_rest(const HeightMap& map, int a, int b) {
  const int k = BlockFit::kBlock, L = map.length(), W = map.width();
  const int blocks_x = (L + k - 1) / k, blocks_y = (W + k - 1) / k;
  const int ca = (a + k - 1) / k, cb = (b + k - 1) / k;
  int32_t best = std::numeric_limits<int32_t>::max();
  for (int bx = 0; bx + ca <= blocks_x; ++bx) {
    for (int by = 0; by + cb <= blocks_y; ++by) {
      int32_t rest = 0;
      for (int x = bx * k; x < std::min(L, (bx + ca) * k); ++x) {
        for (int y = by * k; y < std::min(W, (by + cb) * k); ++y)
          rest = std::max(rest, map.at(x, y));
      }
      best = std::min(best, rest);
    }
  }
  return best;
}

TEST(Bpp3dBlockFit, EqualsBruteForceAndBoundsTheExactLowestRest) {
  std::mt19937_64 rng(19);
  std::vector<int32_t> out;
  for (int trial = 0; trial < 200; ++trial) {
    const bool whole_blocks = trial % 2 == 0;  // L and W multiples of 5: a real placement
    const int L = whole_blocks ? 5 * (1 + int(rng() % 12)) : 1 + int(rng() % 60);
    const int W = whole_blocks ? 5 * (1 + int(rng() % 12)) : 1 + int(rng() % 60);
    const auto map = random_map(L, W, int(rng() % 30), rng);
    const int longest = std::min(L, W);
    const BlockFit fit(map, longest);
    for (int k = 0; k < 6; ++k) {
      const int a = 1 + int(rng() % longest), b = 1 + int(rng() % longest);
      const int32_t rest = fit.lowest_rest(a, b);
      ASSERT_EQ(rest, brute_block_rest(map, a, b)) << a << " x " << b << " on " << L << " x " << W;
      if (!whole_blocks) continue;
      map.resulting_heights(a, b, out);
      ASSERT_GE(rest, *std::min_element(out.begin(), out.end()));
    }
  }
  const BlockFit flat(HeightMap(12, 10), 7);
  EXPECT_EQ(flat.lowest_rest(7, 7), 0);
  EXPECT_THROW((void)flat.lowest_rest(11, 1), std::out_of_range);  // 3 blocks, 7 cells give 2
  EXPECT_THROW((void)flat.lowest_rest(0, 1), std::out_of_range);
}

TEST(Bpp3dHeightMap, ResultingHeightsOnTheFullSizeBase) {
  std::mt19937_64 rng(5);
  const auto map = random_map(120, 100, 60, rng);
  std::vector<int32_t> out;
  for (const auto& [a, b] : std::vector<std::pair<int, int>>{
           {1, 1}, {50, 10}, {33, 47}, {120, 100}, {64, 64}, {120, 1}, {1, 100}}) {
    map.resulting_heights(a, b, out);
    expect_brute_force(map, a, b, out.data());
  }
  std::vector<int32_t> tops;
  map.resulting_tops(33, 47, 12, tops);
  map.resulting_heights(33, 47, out);
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(tops[i], out[i] == HeightMap::kInvalid ? HeightMap::kInvalid : out[i] + 12);
  }
}

TEST(Bpp3dHeightMap, OrientationHeightsEqualResultingHeights) {
  std::mt19937_64 rng(13);
  std::vector<int32_t> all, one;
  for (int trial = 0; trial < 200; ++trial) {
    const int L = 1 + int(rng() % 30), W = 1 + int(rng() % 30);
    const auto map = random_map(L, W, int(rng() % 20), rng);
    // Sides up to 35: some orientations (or all but one) do not fit the base.
    Box box{1 + int(rng() % 35), 1 + int(rng() % 35), 1 + int(rng() % 35)};
    if (trial % 4 == 0) box.w = box.l;  // repeated extents
    map.orientation_heights(box, all);
    ASSERT_EQ(all.size(), 6 * size_t(L) * W);
    for (int o = 0; o < kOrientations; ++o) {
      const auto e = oriented(box, o);
      const int32_t* slice = all.data() + o * size_t(L) * W;
      if (e.dx > L || e.dy > W) {
        EXPECT_TRUE(std::all_of(slice, slice + size_t(L) * W,
                                [](int32_t v) { return v == HeightMap::kInvalid; }));
      } else {
        map.resulting_heights(e.dx, e.dy, one);
        ASSERT_TRUE(std::equal(one.begin(), one.end(), slice)) << "orientation " << o;
      }
    }
  }
}

TEST(Bpp3dHeightMap, PlaceRaisesExactlyTheFootprint) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    auto map = random_map(25, 20, int(rng() % 10), rng);
    const auto before = map;
    const int a = 1 + int(rng() % 25), b = 1 + int(rng() % 20), c = 1 + int(rng() % 9);
    const int x = int(rng() % (25 - a + 1)), y = int(rng() % (20 - b + 1));
    const int32_t z = map.place(x, y, a, b, c);
    ASSERT_EQ(z, brute_resting(before, x, y, a, b));
    int32_t highest = 0;
    for (int i = 0; i < 25; ++i) {
      for (int j = 0; j < 20; ++j) {
        const bool inside = i >= x && i < x + a && j >= y && j < y + b;
        ASSERT_EQ(map.at(i, j), inside ? z + c : before.at(i, j));
        highest = std::max(highest, map.at(i, j));
      }
    }
    EXPECT_EQ(map.max_height(), highest);
  }
  HeightMap map(4, 3);
  EXPECT_THROW((void)map.place(3, 0, 2, 1, 1), std::out_of_range);
  EXPECT_THROW((void)map.place(0, -1, 1, 1, 1), std::out_of_range);
  EXPECT_THROW((void)map.place(0, 0, 1, 1, 0), std::invalid_argument);
  std::vector<int32_t> out;
  EXPECT_THROW(map.resulting_heights(5, 1, out), std::invalid_argument);
  EXPECT_THROW(map.resulting_heights(1, 0, out), std::invalid_argument);
}

// Three boxes on a 10 x 10 base, placed side by side and on top.
BppData small_instance() { return {10, 10, {{10, 10, 4}, {5, 6, 10}, {10, 5, 6}}}; }
std::vector<Placement> small_packing() {
  return {{0, 0, 0, 0, 10, 10, 4}, {1, 0, 0, 4, 5, 10, 6}, {2, 5, 0, 4, 5, 10, 6}};
}

TEST(Bpp3dPacking, AcceptsAValidPacking) {
  const auto data = small_instance();
  EXPECT_EQ(check_packing(data, small_packing()), 10);
  EXPECT_EQ(volume_bound(data), 10);  // (400 + 300 + 300) / 100
  EXPECT_DOUBLE_EQ(load_rate(data, 10), 1.0);
  EXPECT_DOUBLE_EQ(load_rate(data, 20), 0.5);
  // Unsupported (floating) boxes are allowed: only overlap is forbidden.
  auto floating = small_packing();
  floating[2].z = 50;
  EXPECT_EQ(check_packing(data, floating), 56);
}

TEST(Bpp3dPacking, RejectsOverlap) {
  auto p = small_packing();
  p[2].x = 4;  // one unit into box 1
  p[2].dx = 5;
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
  p = small_packing();
  p[1].z = 3;  // one unit into box 0 below
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
}

TEST(Bpp3dPacking, RejectsBoxesOutsideTheBase) {
  auto p = small_packing();
  p[2].x = 6;  // 6 + 5 > 10
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
  p = small_packing();
  p[0].y = -1;
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
  p = small_packing();
  p[0].z = -1;
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
}

TEST(Bpp3dPacking, RejectsMissingAndDuplicateBoxes) {
  auto p = small_packing();
  p.pop_back();
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
  p = small_packing();
  p[2] = p[1];
  p[2].x = 5;
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
  p = small_packing();
  p[2].box = 3;
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
}

TEST(Bpp3dPacking, RejectsExtentsThatAreNoOrientation) {
  auto p = small_packing();
  p[1].dz = 5;  // 5 x 10 x 5 is not a rotation of 5 x 6 x 10
  EXPECT_THROW((void)check_packing(small_instance(), p), std::logic_error);
}

TEST(Bpp3dPacking, ChecksSixteenHundredBoxesQuickly) {
  const auto data = random_instance(eie_protocol(), 1600, 21);
  const auto placements = heightmap_greedy(data);
  const auto start = std::chrono::steady_clock::now();
  const auto height = check_packing(data, placements);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(height, volume_bound(data));
  EXPECT_LT(ms, 500) << "target < 50 ms; generous here for loaded machines";
}

// Hand-built instances whose optimum is known; the heuristic reaches it and
// check_packing recomputes it.
void expect_heuristic_height(const BppData& data, int64_t optimum) {
  const auto placements = heightmap_greedy(data);
  EXPECT_EQ(check_packing(data, placements), optimum);
}

TEST(Bpp3dHeuristic, TwoHalvesSideBySide) {
  // Two 60 x 100 x 10 boxes tile the 120 x 100 base exactly: H = 10 = volume bound.
  const BppData data{120, 100, {{60, 100, 10}, {60, 100, 10}}};
  EXPECT_EQ(volume_bound(data), 10);
  expect_heuristic_height(data, 10);
  const auto p = heightmap_greedy(data);
  EXPECT_EQ(p[0], (Placement{0, 0, 0, 0, 60, 100, 10}));
  EXPECT_EQ(p[1], (Placement{1, 60, 0, 0, 60, 100, 10}));
}

TEST(Bpp3dHeuristic, FourSlabsLieFlatAndStack) {
  // Each box has two sides 10 and one side t in {3, 4, 5, 6}; the volume bound is
  // (3 + 4 + 5 + 6) * 100 / 100 = 18, reached by lying every box flat (t vertical)
  // on the 10 x 10 base. Each box is given with t in a different position.
  const BppData data{10, 10, {{3, 10, 10}, {10, 4, 10}, {10, 10, 5}, {10, 6, 10}}};
  EXPECT_EQ(volume_bound(data), 18);
  expect_heuristic_height(data, 18);
  for (const auto& p : heightmap_greedy(data)) {
    EXPECT_EQ(p.dx, 10);
    EXPECT_EQ(p.dy, 10);
  }
}

TEST(Bpp3dHeuristic, TwoCubesAndASmallCubeAboveTheVolumeBound) {
  // Both 10-cubes cover the whole 10 x 10 base, so every column holds 20 of them,
  // and the columns under the 6-cube hold 6 more: H >= 26, reached by stacking.
  // The volume bound, ceil(2216 / 100) = 23, is not reachable.
  const BppData data{10, 10, {{10, 10, 10}, {6, 6, 6}, {10, 10, 10}}};
  EXPECT_EQ(volume_bound(data), 23);
  expect_heuristic_height(data, 26);
}

TEST(Bpp3dHeuristic, TieBreaksAsDocumented) {
  // A 4 x 2 x 1 box on an empty 6 x 6 base: the lowest top is 1 (lying flat, o = 0
  // as 4 x 2 and o = 1 as 2 x 4); both rest at z = 0 at (0, 0): o = 0 wins.
  HeightMap map(6, 6);
  std::vector<int32_t> scratch;
  EXPECT_EQ(lowest_placement(map, {4, 2, 1}, 3, scratch), (Placement{3, 0, 0, 0, 4, 2, 1}));
  // A step of height 1 over x < 3: the 2 x 4 footprint fits at x = 3 on the floor
  // (top 1), while 4 x 2 cannot avoid the step (top 2).
  (void)map.place(0, 0, 3, 6, 1);
  EXPECT_EQ(lowest_placement(map, {4, 2, 1}, 3, scratch), (Placement{3, 3, 0, 0, 2, 4, 1}));
}

void expect_heuristic_feasible(const Protocol& protocol, uint64_t seed) {
  const auto data = random_instance(protocol, 100, seed);
  const auto placements = heightmap_greedy(data);
  ASSERT_EQ(placements.size(), 100u);
  const auto height = check_packing(data, placements);
  EXPECT_GE(height, volume_bound(data));
  const double rate = load_rate(data, height);
  EXPECT_LE(rate, 1.0);
  EXPECT_GT(rate, 0.3);
  // Every box rests on the height map built by the boxes before it.
  HeightMap map(data.length, data.width);
  for (const auto& p : placements) EXPECT_EQ(map.place(p.x, p.y, p.dx, p.dy, p.dz), p.z);
  EXPECT_EQ(map.max_height(), height);
}

TEST(Bpp3dHeuristic, FeasibleOnRandomEieInstances) {
  for (uint64_t seed = 1; seed <= 4; ++seed) expect_heuristic_feasible(eie_protocol(), seed);
}

TEST(Bpp3dHeuristic, FeasibleOnRandomAttend2packInstances) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    expect_heuristic_feasible(attend2pack_protocol(), seed);
  }
}

TEST(Bpp3dHeuristic, BatchEqualsOneByOne) {
  std::vector<BppData> instances;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    instances.push_back(random_instance(eie_protocol(140, 110), 40, seed));
  }
  const auto all = heightmap_greedy_all(instances);
  ASSERT_EQ(all.size(), instances.size());
  for (size_t i = 0; i < instances.size(); ++i) EXPECT_EQ(all[i], heightmap_greedy(instances[i]));
  instances[3].boxes[0].h = 0;
  EXPECT_THROW((void)heightmap_greedy_all(instances), std::invalid_argument);
}

TEST(Bpp3dHeuristic, PackInOrderRejectsABadOrder) {
  const auto data = small_instance();
  EXPECT_THROW((void)pack_in_order(data, {0, 1}), std::invalid_argument);
  EXPECT_THROW((void)pack_in_order(data, {0, 1, 1}), std::invalid_argument);
  EXPECT_EQ(volume_order(data), (std::vector<int>{0, 1, 2}));  // 400, 300, 300
  // Box 2 lies as 10 x 6 x 5 at the origin; box 1 ends at top 10 either as 6 x 10 x 5
  // (o = 4) or 10 x 6 x 5 (o = 5), both at (0, 0) and z = 5: o = 4 wins the tie and
  // covers the free 10 x 4 strip at y >= 6 over x < 6, so box 0 goes on top: 14
  // (standing box 0 in the strip after o = 5 would have given 10).
  EXPECT_EQ(check_packing(data, pack_in_order(data, {2, 1, 0})), 14);
}

TEST(Bpp3dFile, InstanceRoundTrip) {
  const auto dir = test::scratch_dir("bpp");
  const auto data = random_instance(attend2pack_protocol(), 30, 9);
  write_bpp(dir / "a.bpp", data);
  const auto back = read_bpp(dir / "a.bpp");
  EXPECT_EQ(back.length, 100);
  EXPECT_EQ(back.width, 100);
  ASSERT_EQ(back.boxes.size(), 30u);
  for (size_t i = 0; i < 30; ++i) {
    EXPECT_EQ(back.boxes[i].l, data.boxes[i].l);
    EXPECT_EQ(back.boxes[i].w, data.boxes[i].w);
    EXPECT_EQ(back.boxes[i].h, data.boxes[i].h);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "missing" / "a.bpp"));
  EXPECT_THROW(write_bpp(dir / "missing" / "a.bpp", data), std::invalid_argument);
}

TEST(Bpp3dFile, ParsesCommentsAndBlankLines) {
  const auto data =
      parse_bpp("# a comment\n\n 12 10 2 \r\n  # indented comment\n3 4 5\n\t6 7 8\n\n", "inline");
  EXPECT_EQ(data.length, 12);
  EXPECT_EQ(data.width, 10);
  ASSERT_EQ(data.boxes.size(), 2u);
  EXPECT_EQ(data.boxes[1].h, 8);
  try {
    (void)parse_bpp("12 10 1\n3 4 5\n1 1 1\n", "inline");
    FAIL() << "accepted an extra box line";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "inline:3: more than n = 1 box lines");
  }
}

TEST(Bpp3dFile, PlacementsRoundTrip) {
  const auto dir = test::scratch_dir("placements");
  const auto data = random_instance(eie_protocol(), 50, 4);
  const auto placements = heightmap_greedy(data);
  write_placements(dir / "a.txt", data, placements);
  const auto bin = read_placements(dir / "a.txt");
  EXPECT_EQ(bin.length, 120);
  EXPECT_EQ(bin.width, 100);
  EXPECT_EQ(bin.placements, placements);
  EXPECT_EQ(bin.height, check_packing(data, bin.placements));
  // An infeasible packing is never written.
  auto bad = placements;
  bad[1] = bad[0];
  EXPECT_THROW(write_placements(dir / "b.txt", data, bad), std::logic_error);
  EXPECT_FALSE(std::filesystem::exists(dir / "b.txt"));
}

TEST(Bpp3dFile, PlacementsReaderIsStrict) {
  EXPECT_EQ(parse_placements("10 10 4\n0 0 0 0 10 10 4\n", "p").height, 4);
  const auto rejects = [](const std::string& text, const std::string& message) {
    try {
      (void)parse_placements(text, "p");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  rejects("10 10 5\n0 0 0 0 10 10 4\n", "p:1: H = 5 but the boxes reach 4");
  rejects("10 10 4\n0 0 0 0 10 10\n", "p:2: expected 'id x y z l w h', found 6 tokens");
  rejects("10 10 4\n0 0 -1 0 10 10 4\n", "p:2: box 0 y = -1 must be in 0..");
  rejects("10 10 4\n", "p:1: no placement lines");
  rejects("10 10 4\n0 0 0 0 10 10 4.0\n", "p:2: box 0 h: expected an integer, got '4.0'");
}

// A file of tests/data/broken is rejected with a one-line message naming the
// file, the line and `message`.
void expect_broken(const std::string& file, const std::string& message) {
  const auto path = std::filesystem::path(EIE_TEST_DATA) / "broken" / file;
  try {
    (void)read_bpp(path);
    ADD_FAILURE() << "accepted " << path;
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path.string() + ":"), std::string::npos) << what;
    EXPECT_NE(what.find(message), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
  }
}

TEST(Bpp3dBrokenFile, BoxTooLargeInEveryOrientation) {
  expect_broken("bpp_too_large.bpp",
                ":5: box 2 (60 x 130 x 170) fits the 120 x 100 base in no orientation");
}

TEST(Bpp3dBrokenFile, ZeroSide) {
  expect_broken("bpp_zero_side.bpp", ":3: box 1 w = 0 must be in 1..");
}

TEST(Bpp3dBrokenFile, NegativeSide) {
  expect_broken("bpp_negative_side.bpp", ":2: box 0 w = -5 must be in 1..");
}

TEST(Bpp3dBrokenFile, NonIntegerSide) {
  expect_broken("bpp_non_integer.bpp", ":3: box 1 w: expected an integer, got '40.5'");
}

TEST(Bpp3dBrokenFile, Truncated) {
  expect_broken("bpp_truncated.bpp", ":9: truncated: expected 20 boxes, found 7");
}

TEST(Bpp3dBrokenFile, NoBoxes) {
  expect_broken("bpp_no_boxes.bpp", ":2: n = 0: an instance needs at least one box");
}

TEST(Bpp3dBrokenFile, ExtraTokens) {
  expect_broken("bpp_extra_tokens.bpp", ":3: expected 'l w h', found 4 tokens");
}

}  // namespace
}  // namespace eie::bpp3d
