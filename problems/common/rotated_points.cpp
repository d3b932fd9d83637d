#include "problems/common/rotated_points.h"

#include <cmath>

namespace eie {

torch::Tensor rotated_into_square(const torch::Tensor& points, double radians, double lo,
                                  double hi) {
  const double centre = (lo + hi) / 2, c = std::cos(radians), s = std::sin(radians);
  const auto x = points.select(2, 0) - centre, y = points.select(2, 1) - centre;
  const auto turned = torch::stack({x * c - y * s, x * s + y * c}, 2);  // [B, m, 2]
  const auto low = std::get<0>(turned.min(1, true)), high = std::get<0>(turned.max(1, true));
  const auto range = high - low;                                       // [B, 1, 2]
  const auto span = std::get<0>(range.max(2, true)).clamp_min(1e-12);  // [B, 1, 1]
  const auto origin = low - (span - range) / 2;                        // the shorter side centred
  return lo + (turned - origin) / span * (hi - lo);
}

}  // namespace eie
