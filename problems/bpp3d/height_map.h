#pragma once

// The height map of a partly packed bin and the resting heights of a footprint at
// every base position, by sliding-window maxima (O(L * W * log) per footprint).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "problems/bpp3d/box.h"

namespace eie::bpp3d {

// An L x W grid of int32 heights, cell (x, y) = height of the packing over the unit
// square [x, x+1) x [y, y+1). Stored x-major: cell (x, y) at index x * W + y, so a
// row of constant x is contiguous. A box with footprint a x b (a along x, b along y)
// placed at (x, y) covers cells [x, x+a) x [y, y+b), rests at z = the maximum height
// over them, and raises them all to z + c.
class HeightMap {
 public:
  // Marks positions where a footprint does not fit in the output of resulting_heights.
  static constexpr int32_t kInvalid = std::numeric_limits<int32_t>::max();

  // A flat empty bin; throws std::invalid_argument unless length, width >= 1.
  HeightMap(int length, int width);

  [[nodiscard]] int length() const { return length_; }
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int32_t at(int x, int y) const { return cells_[std::size_t(x) * width_ + y]; }
  // All cells, x-major (index x * W + y).
  [[nodiscard]] const std::vector<int32_t>& cells() const { return cells_; }
  // The packed height H: the maximum over all cells (0 when empty).
  [[nodiscard]] int32_t max_height() const { return max_height_; }

  // True when a footprint a x b at (x, y) lies inside the base.
  [[nodiscard]] bool fits(int x, int y, int a, int b) const;
  // Resting height z of footprint a x b at (x, y); std::out_of_range unless it fits.
  [[nodiscard]] int32_t resting_height(int x, int y, int a, int b) const;
  // Places a box of extents (a, b, c) at (x, y): returns its resting height z and
  // sets the footprint to z + c. std::out_of_range unless it fits, and
  // std::invalid_argument unless c >= 1 and z + c fits in int32.
  int32_t place(int x, int y, int a, int b, int c);
  // Back to a flat empty bin.
  void reset();

  // For footprint a x b: out[x * W + y] = resting height at (x, y) for every
  // x in [0, L - a] and y in [0, W - b], kInvalid elsewhere. `out` holds L * W
  // values and is the only memory written (no allocation). Throws
  // std::invalid_argument unless 1 <= a <= L and 1 <= b <= W.
  void resulting_heights(int a, int b, int32_t* out) const;
  // The same into a vector resized to L * W (allocates only when it grows).
  void resulting_heights(int a, int b, std::vector<int32_t>& out) const;
  // For each orientation o of `box` (numbered as in oriented()), the resting heights
  // of its footprint (dx, dy) exactly as resulting_heights gives them, in
  // out[o * L * W .. (o + 1) * L * W); all kInvalid when the footprint does not fit
  // the base. Shares the work along y between the two orientations with equal dy.
  // `out` holds 6 * L * W values.
  void orientation_heights(const Box& box, int32_t* out) const;
  // The same into a vector resized to 6 * L * W.
  void orientation_heights(const Box& box, std::vector<int32_t>& out) const;
  // The same plus c at the valid positions: the top z + c a box of height c would reach.
  void resulting_tops(int a, int b, int c, std::vector<int32_t>& out) const;

 private:
  int length_;                  // L, cells along x
  int width_;                   // W, cells along y (the contiguous direction)
  std::vector<int32_t> cells_;  // L * W heights, x-major
  int32_t max_height_ = 0;      // maximum of cells_
};

}  // namespace eie::bpp3d
