#include "problems/common/point.h"

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
  // The shorter side is centred: with the points of kroA100 (2:1) at the bottom
  // of the square, `eie solve kroA100.tsp --decode sample:16` with the reference
  // model gave a 45% gap (greedy 8.9%); centred, 9.0% (greedy 10.2%).
  const double x0 = min_x - (span - (max_x - min_x)) / 2, y0 = min_y - (span - (max_y - min_y)) / 2;
  std::vector<Point> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back({(p.x - x0) / span, (p.y - y0) / span});
  return out;
}

}  // namespace eie
