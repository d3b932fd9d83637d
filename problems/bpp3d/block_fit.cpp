#include "problems/bpp3d/block_fit.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace eie::bpp3d {

namespace {

int blocks(int cells) { return (cells + BlockFit::kBlock - 1) / BlockFit::kBlock; }

}  // namespace

BlockFit::BlockFit(const HeightMap& map, int longest) {
  const int L = map.length(), W = map.width();
  const int bx = blocks(L), by = blocks(W);
  max_a_ = std::min(bx, blocks(longest));
  max_b_ = std::min(by, blocks(longest));
  std::vector<int32_t> grid(size_t(bx) * by, 0);
  for (int x = 0; x < L; ++x) {
    for (int y = 0; y < W; ++y) {
      auto& g = grid[size_t(x / kBlock) * by + y / kBlock];
      g = std::max(g, map.at(x, y));
    }
  }
  // Window maxima grown one block at a time: along x in `rows` (a blocks), then
  // along y in `window` (a x b blocks). Entries past the last position of the
  // current window size are stale and never read again.
  lowest_.resize(size_t(max_a_) * max_b_);
  std::vector<int32_t> rows = grid, window;
  for (int a = 1; a <= max_a_; ++a) {
    for (int x = 0; a > 1 && x <= bx - a; ++x) {
      for (int y = 0; y < by; ++y) {
        rows[x * by + y] = std::max(rows[x * by + y], grid[(x + a - 1) * by + y]);
      }
    }
    window = rows;
    for (int b = 1; b <= max_b_; ++b) {
      int32_t best = std::numeric_limits<int32_t>::max();
      for (int x = 0; x <= bx - a; ++x) {
        for (int y = 0; y <= by - b; ++y) {
          auto& w = window[x * by + y];
          if (b > 1) w = std::max(w, rows[x * by + y + b - 1]);
          best = std::min(best, w);
        }
      }
      lowest_[size_t(a - 1) * max_b_ + b - 1] = best;
    }
  }
}

int32_t BlockFit::lowest_rest(int a, int b) const {
  const int ca = blocks(a), cb = blocks(b);
  if (a < 1 || b < 1 || ca > max_a_ || cb > max_b_) {
    throw std::out_of_range("BlockFit: footprint outside the blocks it was built for");
  }
  return lowest_[size_t(ca - 1) * max_b_ + cb - 1];
}

}  // namespace eie::bpp3d
