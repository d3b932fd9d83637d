#include "common/point.h"

#include <algorithm>

namespace eie {

std::vector<Point> fit_unit_square(const std::vector<Point>& points) {
  if (points.empty()) return {};
  double min_x = points[0].x, max_x = min_x, min_y = points[0].y, max_y = min_y;
  for (const auto& p : points) {
    min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
  }
  const double span = std::max({max_x - min_x, max_y - min_y, 1e-12});
  std::vector<Point> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back({(p.x - min_x) / span, (p.y - min_y) / span});
  return out;
}

}  // namespace eie
