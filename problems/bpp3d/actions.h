#pragma once

// A packing as the decode loop's actions, two per box: first box * 6 + o (which
// box, in which orientation of oriented()), then x * W + y (where its back-left
// corner goes on the base). Replaying them on a height map gives the placements.

#include <cstdint>
#include <vector>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/height_map.h"
#include "problems/bpp3d/packing.h"

namespace eie::bpp3d {

[[nodiscard]] inline int64_t box_action(int box, int orientation) {
  return int64_t{box} * kOrientations + orientation;
}
[[nodiscard]] inline int64_t position_action(int x, int y, int width) {
  return int64_t{x} * width + y;
}

// Placements of a full action sequence (2 n actions). Throws std::logic_error
// naming the step for a box packed twice, an unknown box or orientation, or a
// footprint outside the base.
[[nodiscard]] std::vector<Placement> replay(const BppData& data,
                                            const std::vector<int64_t>& actions);

// Actions of placements in packing order (replay(data, actions_of(...)) gives them
// back when each placement rests where its height map says).
[[nodiscard]] std::vector<int64_t> actions_of(const BppData& data,
                                              const std::vector<Placement>& placements);

// Bottom-left corner candidates of one footprint, from its resting heights rh
// (HeightMap::resulting_heights): (x, y) is a candidate when the footprint fits
// and sliding it one cell towards x = 0 or towards y = 0 would either leave the
// base or rest it higher. Every position has a candidate resting no higher (slide
// it while it does not rise), so the lowest placements are always among them.
// out[x * W + y] = 1 for candidates, 0 elsewhere.
void corner_candidates(const int32_t* rh, int length, int width, uint8_t* out);

}  // namespace eie::bpp3d
