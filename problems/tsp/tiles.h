#pragma once

// Tiled decoding of large TSP instances: the plane is cut into tiles of at most K
// cities, each tile's tour comes from elsewhere (a policy that handles K cities
// well), and the tile tours are joined into one tour of all cities.

#include <cstdint>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

// Recursive median cuts across the longer side of each part's bounding box until
// every part holds at most `max_size` cities (max_size >= 5, so that every part
// keeps at least 3). Parts come out in cut order (neighbouring parts mostly close
// together); each lists city indices.
[[nodiscard]] std::vector<std::vector<int64_t>> spatial_tiles(const std::vector<Point>& cities,
                                                              int64_t max_size);

// One tour of all cities from closed tours of the tiles (city indices, together a
// partition of the cities): tiles are visited in the order of a short tour over
// their centroids, and each tile's tour is opened at one edge and traversed in one
// direction, both chosen to minimise the joined length exactly (dynamic programming
// around the tile cycle).
[[nodiscard]] Tour join_tile_tours(const std::vector<Point>& cities,
                                   const std::vector<Tour>& tile_tours);

}  // namespace eie::tsp
