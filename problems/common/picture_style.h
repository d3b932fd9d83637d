#pragma once

// What the pictures of every problem share: line widths and marker sizes that stay
// readable from a few nodes to thousands, and number formatting for datablocks.

#include <algorithm>
#include <map>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "problems/common/point.h"
#include "src/problem/picture.h"

namespace eie {

// Line width and point size for a picture of n nodes.
struct Strokes {
  double line;
  double point;
};
[[nodiscard]] inline Strokes strokes_for(int64_t n) {
  if (n <= 200) return {1.5, 0.8};
  if (n <= 1000) return {1.0, 0.45};
  return {0.6, 0.25};
}

// A number for a datablock or a script: as many digits as it needs, no more.
[[nodiscard]] inline std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

// What every 2D map of nodes starts with: titles taken literally (no enhanced-text
// markup: file names have underscores), equal axes, a margin around the nodes.
inline constexpr const char* kMapPreamble =
    "set termoption noenhanced\nset size ratio -1\nunset key\nset autoscale fix\n"
    "set offsets graph 0.02, graph 0.02, graph 0.02, graph 0.02\nset tics font ',8'\n";

// A map's default size: 900 pixels wide, as tall as the points' bounding box
// (within 450..1200) and room for the title.
[[nodiscard]] inline Picture map_picture(std::string script, std::map<std::string, std::string> data,
                                         const std::vector<Point>& points) {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (!points.empty()) {
    const auto [lx, hx] = std::minmax_element(points.begin(), points.end(),
                                              [](const Point& a, const Point& b) { return a.x < b.x; });
    const auto [ly, hy] = std::minmax_element(points.begin(), points.end(),
                                              [](const Point& a, const Point& b) { return a.y < b.y; });
    x0 = lx->x, x1 = hx->x, y0 = ly->y, y1 = hy->y;
  }
  const double aspect = (y1 - y0) / std::max(x1 - x0, 1e-12);
  const int height = static_cast<int>(std::clamp(800 * aspect, 450.0, 1200.0)) + 100;
  return {std::move(script), std::move(data), 900, height};
}

}  // namespace eie
