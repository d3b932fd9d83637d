#include "problems/bpp3d/actions.h"

#include <stdexcept>
#include <string>

namespace eie::bpp3d {

std::vector<Placement> replay(const BppData& data, const std::vector<int64_t>& actions) {
  const auto n = static_cast<int64_t>(data.boxes.size());
  if (static_cast<int64_t>(actions.size()) != 2 * n) {
    throw std::logic_error("a packing of " + std::to_string(n) + " boxes has " +
                           std::to_string(2 * n) + " actions, got " +
                           std::to_string(actions.size()));
  }
  HeightMap map(data.length, data.width);
  std::vector<bool> packed(n, false);
  std::vector<Placement> out;
  for (int64_t step = 0; step < n; ++step) {
    const auto what = actions[2 * step], where = actions[2 * step + 1];
    const auto at = "step " + std::to_string(step) + ": ";
    if (what < 0 || what >= n * kOrientations)
      throw std::logic_error(at + "no box action " + std::to_string(what));
    const int box = static_cast<int>(what / kOrientations);
    if (packed[box]) throw std::logic_error(at + "box " + std::to_string(box) + " packed twice");
    packed[box] = true;
    const auto e = oriented(data.boxes[box], static_cast<int>(what % kOrientations));
    const int x = static_cast<int>(where / data.width), y = static_cast<int>(where % data.width);
    if (where < 0 || !map.fits(x, y, e.dx, e.dy)) {
      throw std::logic_error(at + "box " + std::to_string(box) + " at position " +
                             std::to_string(where) + " leaves the base");
    }
    const int z = map.place(x, y, e.dx, e.dy, e.dz);
    out.push_back({box, x, y, z, e.dx, e.dy, e.dz});
  }
  return out;
}

std::vector<int64_t> actions_of(const BppData& data, const std::vector<Placement>& placements) {
  std::vector<int64_t> out;
  for (const auto& p : placements) {
    const Extents placed{p.dx, p.dy, p.dz};
    int orientation = 0;
    while (orientation < kOrientations && oriented(data.boxes[p.box], orientation) != placed) {
      ++orientation;
    }
    if (orientation == kOrientations)
      throw std::logic_error("box " + std::to_string(p.box) + " placed in no orientation of it");
    out.push_back(box_action(p.box, orientation));
    out.push_back(position_action(p.x, p.y, data.width));
  }
  return out;
}

void corner_candidates(const int32_t* rh, int length, int width, uint8_t* out) {
  for (int x = 0; x < length; ++x) {
    const int32_t* row = rh + static_cast<size_t>(x) * width;
    const int32_t* above = x > 0 ? row - width : nullptr;
    uint8_t* o = out + static_cast<size_t>(x) * width;
    for (int y = 0; y < width; ++y) {
      const int32_t z = row[y];
      // kInvalid is the largest int32: "leaves the base" reads as "rests higher".
      o[y] = z != HeightMap::kInvalid && (x == 0 || above[y] > z) && (y == 0 || row[y - 1] > z);
    }
  }
}

}  // namespace eie::bpp3d
