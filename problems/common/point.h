#pragma once

#include <cmath>
#include <vector>

namespace eie {

struct Point {
  double x = 0;  // first coordinate
  double y = 0;  // second coordinate
};

// Largest accepted |coordinate| of an instance file: distances stay finite, and an
// integer tour length of a million such edges stays within int64.
inline constexpr double kMaxCoordinate = 1e12;
[[nodiscard]] inline bool within_coordinate_range(const Point& p) {
  return std::abs(p.x) <= kMaxCoordinate && std::abs(p.y) <= kMaxCoordinate;  // false for NaN
}

[[nodiscard]] inline double distance(const Point& a, const Point& b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

// Aspect-preserving map of a point set into [0,1]^2: the longer side spans [0,1],
// the shorter one is centred. Policies trained on the unit square read file
// instances through it.
[[nodiscard]] std::vector<Point> fit_unit_square(const std::vector<Point>& points);

}  // namespace eie
