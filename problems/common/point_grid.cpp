#include "problems/common/point_grid.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <utility>

namespace eie {

PointGrid::PointGrid(const std::vector<Point>& points)
    : points_(points), slot_(points.size()), count_(static_cast<int64_t>(points.size())) {
  if (points.empty()) return;
  double max_x = points[0].x, max_y = points[0].y;
  min_x_ = points[0].x, min_y_ = points[0].y;
  for (const auto& p : points) {
    min_x_ = std::min(min_x_, p.x), max_x = std::max(max_x, p.x);
    min_y_ = std::min(min_y_, p.y), max_y = std::max(max_y, p.y);
  }
  const double width = max_x - min_x_, height = max_y - min_y_;
  const double n = static_cast<double>(points.size());
  // About two points per cell; never more cells than about 1.5 n, however thin the
  // bounding box (a line of points has no area), and some size for a single spot.
  cell_ = std::max(std::sqrt(2 * width * height / n), 2 * std::max(width, height) / n);
  if (!(cell_ > 0)) cell_ = 1;
  columns_ = static_cast<int64_t>(width / cell_) + 1;
  rows_ = static_cast<int64_t>(height / cell_) + 1;
  cells_.resize(static_cast<size_t>(columns_ * rows_));
  for (size_t i = 0; i < points.size(); ++i) {
    auto& cell = cells_[cell_y(points[i].y) * columns_ + cell_x(points[i].x)];
    slot_[i] = static_cast<int64_t>(cell.size());
    cell.push_back(static_cast<int64_t>(i));
  }
}

int64_t PointGrid::cell_x(double x) const {
  return std::clamp<int64_t>(static_cast<int64_t>((x - min_x_) / cell_), 0, columns_ - 1);
}

int64_t PointGrid::cell_y(double y) const {
  return std::clamp<int64_t>(static_cast<int64_t>((y - min_y_) / cell_), 0, rows_ - 1);
}

template <class Visit>
void PointGrid::visit_ring(int64_t cx, int64_t cy, int64_t r, Visit visit) const {
  const auto visit_cell = [&](int64_t x, int64_t y) {
    if (x < 0 || y < 0 || x >= columns_ || y >= rows_) return;
    for (const int64_t i : cells_[y * columns_ + x]) visit(i);
  };
  if (r == 0) return visit_cell(cx, cy);
  for (int64_t x = cx - r; x <= cx + r; ++x) visit_cell(x, cy - r), visit_cell(x, cy + r);
  for (int64_t y = cy - r + 1; y <= cy + r - 1; ++y) visit_cell(cx - r, y), visit_cell(cx + r, y);
}

std::vector<int64_t> PointGrid::search(const Point& p, int64_t k, int64_t skip) const {
  // Max-heap of the k best (distance, index) so far.
  std::priority_queue<std::pair<double, int64_t>> best;
  const int64_t cx = cell_x(p.x), cy = cell_y(p.y);
  const int64_t rings = std::max({cx, cy, columns_ - 1 - cx, rows_ - 1 - cy});
  for (int64_t r = 0; r <= rings; ++r) {
    visit_ring(cx, cy, r, [&](int64_t i) {
      if (i == skip) return;
      const double d = distance(p, points_[i]);
      if (static_cast<int64_t>(best.size()) < k) {
        best.emplace(d, i);
      } else if (d < best.top().first) {
        best.pop();
        best.emplace(d, i);
      }
    });
    // Points beyond ring r are at least r cells away along one axis.
    if (static_cast<int64_t>(best.size()) == k && best.top().first <= r * cell_) break;
  }
  std::vector<int64_t> out(best.size());
  for (auto slot = out.rbegin(); slot != out.rend(); ++slot) *slot = best.top().second, best.pop();
  return out;
}

std::vector<int64_t> PointGrid::nearest(int64_t i, int64_t k) const {
  return search(points_[i], k, i);
}

int64_t PointGrid::nearest_to(const Point& p) const {
  if (count_ == 0) return -1;
  return search(p, 1, -1).front();
}

void PointGrid::remove(int64_t i) {
  auto& cell = cells_[cell_y(points_[i].y) * columns_ + cell_x(points_[i].x)];
  const int64_t moved = cell.back();
  cell[slot_[i]] = moved;
  slot_[moved] = slot_[i];
  cell.pop_back();
  --count_;
}

}  // namespace eie
