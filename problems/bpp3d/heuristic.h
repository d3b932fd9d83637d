#pragma once

// The height-map greedy baseline for O3BPP: boxes by decreasing volume, each at
// the orientation and position where it ends lowest.

#include <cstdint>
#include <vector>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/height_map.h"
#include "problems/bpp3d/packing.h"

namespace eie::bpp3d {

// Where box `id` (extents from `box`) would go on `map`, without placing it. Among
// all orientations o whose footprint fits the base and all positions (x, y) with
// the footprint inside the base (every position is considered, not only corner
// candidates), it minimises, in this order:
//   1. max(H, z + dz), H = map.max_height(): the packed height after placing it;
//   2. z + dz, the box's top (so criterion 1 never decides alone: this is the
//      lowest top);
//   3. z, the resting height (prefers the flatter orientation at equal tops);
//   4. x, then 5. y (back-left first), then 6. o (orientation index of oriented()).
// `scratch` is reused between calls (6 * L * W int32).
[[nodiscard]] Placement lowest_placement(const HeightMap& map, const Box& box, int id,
                                         std::vector<int32_t>& scratch);

// Box ids by decreasing volume; equal volumes by increasing id.
[[nodiscard]] std::vector<int> volume_order(const BppData& data);

// Places the boxes in `order` (a permutation of 0..n-1, else std::invalid_argument)
// one by one at their lowest_placement on an initially empty height map. Returns
// the placements in packing order. Validates `data` first.
[[nodiscard]] std::vector<Placement> pack_in_order(const BppData& data,
                                                   const std::vector<int>& order);

// pack_in_order(data, volume_order(data)).
[[nodiscard]] std::vector<Placement> heightmap_greedy(const BppData& data);

// heightmap_greedy of each instance, in parallel over instances (OpenMP); every
// instance is validated before any work starts.
[[nodiscard]] std::vector<std::vector<Placement>> heightmap_greedy_all(
    const std::vector<BppData>& instances);

}  // namespace eie::bpp3d
