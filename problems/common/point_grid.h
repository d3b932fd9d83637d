#pragma once

// Points bucketed in a uniform grid of about two points per cell, so that nearest
// points are found by looking at cells in growing square rings around a query:
// near O(1) per query on spread-out points instead of O(n). Used by the TSP
// heuristics at 10^5 cities.

#include <cstdint>
#include <vector>

#include "problems/common/point.h"

namespace eie {

class PointGrid {
 public:
  explicit PointGrid(const std::vector<Point>& points);

  // The k nearest points to point i among those in the grid, i itself left out,
  // nearest first (fewer when the grid holds fewer).
  [[nodiscard]] std::vector<int64_t> nearest(int64_t i, int64_t k) const;
  // The point in the grid nearest to `p`; -1 when the grid is empty.
  [[nodiscard]] int64_t nearest_to(const Point& p) const;
  // Takes point i out of the grid (it is never found again).
  void remove(int64_t i);

 private:
  [[nodiscard]] int64_t cell_x(double x) const;
  [[nodiscard]] int64_t cell_y(double y) const;
  // Calls visit(point) for every point in the cells at Chebyshev ring r around (cx, cy).
  template <class Visit>
  void visit_ring(int64_t cx, int64_t cy, int64_t r, Visit visit) const;
  // The k nearest to `p` in the grid, skipping `skip`, nearest first.
  [[nodiscard]] std::vector<int64_t> search(const Point& p, int64_t k, int64_t skip) const;

  const std::vector<Point>& points_;        // the points, by index
  double min_x_ = 0, min_y_ = 0;            // lower corner of the bounding box
  double cell_ = 1;                         // side of a (square) cell
  int64_t columns_ = 1, rows_ = 1;          // grid size
  std::vector<std::vector<int64_t>> cells_;  // point indices per cell, row-major
  std::vector<int64_t> slot_;               // each point's index within its cell's list
  int64_t count_ = 0;                       // points still in the grid
};

}  // namespace eie
