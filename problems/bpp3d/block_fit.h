#pragma once

// The lowest resting height a footprint can find on a partly packed bin, estimated
// on a grid of 5 x 5 blocks: cheap enough for every unpacked box and orientation at
// every step. The exact value takes a sliding-window maximum over the whole map per
// footprint, and a step at n = 100 has up to 600 footprints.

#include <cstdint>
#include <vector>

#include "problems/bpp3d/height_map.h"

namespace eie::bpp3d {

class BlockFit {
 public:
  static constexpr int kBlock = 5;  // cells per block side

  // Block maxima of `map` and the lowest rest of every block footprint up to
  // `longest` cells a side (the instance's longest box side).
  BlockFit(const HeightMap& map, int longest);

  // The resting height of footprint a x b rounded up to whole blocks, at the block
  // corner where it rests lowest. When L and W are multiples of 5 this is a real
  // placement's resting height, hence at least the exact lowest. Throws
  // std::out_of_range unless 1 <= a, b and both fit in the blocks of `longest`.
  [[nodiscard]] int32_t lowest_rest(int a, int b) const;

 private:
  int max_a_;                    // largest footprint in blocks along x
  int max_b_;                    // and along y
  std::vector<int32_t> lowest_;  // [max_a, max_b]: by footprint in blocks, minus one
};

}  // namespace eie::bpp3d
