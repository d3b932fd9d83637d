#include "problems/bpp3d/packing.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace eie::bpp3d {

namespace {

std::string describe(const Placement& p) {
  return "box " + std::to_string(p.box) + " at (" + std::to_string(p.x) + ", " +
         std::to_string(p.y) + ", " + std::to_string(p.z) + ") as " + std::to_string(p.dx) + " x " +
         std::to_string(p.dy) + " x " + std::to_string(p.dz);
}

bool is_orientation(const Box& box, const Placement& p) {
  const Extents placed{p.dx, p.dy, p.dz};
  for (const auto& e : orientations(box)) {
    if (e == placed) return true;
  }
  return false;
}

}  // namespace

void placement_rows(const std::vector<Placement>& placements, int32_t* out) {
  for (const auto& p : placements) {
    for (const int value : {p.box, p.x, p.y, p.z, p.dx, p.dy, p.dz}) *out++ = value;
  }
}

std::vector<Placement> placements_of_rows(const int32_t* rows, int64_t count) {
  std::vector<Placement> placements;
  for (int64_t i = 0; i < count; ++i, rows += kPlacementColumns) {
    placements.push_back({rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6]});
  }
  return placements;
}

int64_t check_packing(const BppData& data, const std::vector<Placement>& placements) {
  const size_t n = data.boxes.size();
  std::vector<bool> seen(n, false);
  int64_t height = 0;
  for (const auto& p : placements) {
    if (p.box < 0 || size_t(p.box) >= n) {
      throw std::logic_error("placement of box " + std::to_string(p.box) + ": ids are 0.." +
                             std::to_string(n - 1));
    }
    if (seen[p.box]) throw std::logic_error("box " + std::to_string(p.box) + " placed twice");
    seen[p.box] = true;
    if (!is_orientation(data.boxes[p.box], p)) {
      const auto& b = data.boxes[p.box];
      throw std::logic_error(describe(p) + ": not an orientation of " + std::to_string(b.l) +
                             " x " + std::to_string(b.w) + " x " + std::to_string(b.h));
    }
    if (p.x < 0 || p.y < 0 || int64_t{p.x} + p.dx > data.length ||
        int64_t{p.y} + p.dy > data.width) {
      throw std::logic_error(describe(p) + ": outside the " + std::to_string(data.length) + " x " +
                             std::to_string(data.width) + " base");
    }
    if (p.z < 0) throw std::logic_error(describe(p) + ": below the floor");
    height = std::max(height, int64_t{p.z} + p.dz);
  }
  for (size_t i = 0; i < n; ++i) {
    if (!seen[i]) throw std::logic_error("box " + std::to_string(i) + " is not placed");
  }
  // Sweep along x: only boxes whose x-ranges intersect can overlap.
  std::vector<size_t> order(placements.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return placements[a].x < placements[b].x; });
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& p = placements[order[i]];
    for (size_t j = i + 1; j < order.size(); ++j) {
      const auto& q = placements[order[j]];
      if (q.x >= p.x + p.dx) break;
      if (q.y < p.y + p.dy && p.y < q.y + q.dy && int64_t{q.z} < int64_t{p.z} + p.dz &&
          int64_t{p.z} < int64_t{q.z} + q.dz) {
        throw std::logic_error(describe(p) + " overlaps " + describe(q));
      }
    }
  }
  return height;
}

double load_rate(const BppData& data, int64_t height) {
  if (height <= 0) throw std::invalid_argument("height " + std::to_string(height) + " must be > 0");
  return static_cast<double>(data.total_volume()) /
         (static_cast<double>(data.length) * data.width * static_cast<double>(height));
}

int64_t volume_bound(const BppData& data) {
  const int64_t base = int64_t{data.length} * data.width;
  return (data.total_volume() + base - 1) / base;
}

}  // namespace eie::bpp3d
