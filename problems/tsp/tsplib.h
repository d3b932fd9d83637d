#pragma once

// TSPLIB instances (.tsp) and tours (.tour). Supported: TYPE TSP with a
// NODE_COORD_SECTION and EDGE_WEIGHT_TYPE EUC_2D, CEIL_2D or ATT. Explicit
// matrices, GEO and 3D coordinates are rejected by name.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

enum class EdgeWeight { euc_2d, ceil_2d, att };

struct TsplibInstance {
  std::string name;           // NAME field (file stem when absent)
  EdgeWeight edge_weight;     // distance convention of the file
  std::vector<Point> cities;  // coordinates as written, in node-id order
};

// Throws std::invalid_argument as "FILE:LINE: what is wrong".
[[nodiscard]] TsplibInstance read_tsplib(const std::filesystem::path& path);
[[nodiscard]] TsplibInstance parse_tsplib(const std::string& text, const std::string& origin);

// Integer distance in the file's own convention (TSPLIB95 definitions).
[[nodiscard]] int64_t tsplib_distance(EdgeWeight weight, const Point& a, const Point& b);
[[nodiscard]] int64_t tsplib_length(const TsplibInstance& instance, const Tour& tour);

// TOUR_SECTION with 1-based ids ending in -1; written atomically.
void write_tour(const std::filesystem::path& path, const std::string& name, const Tour& tour,
                int64_t length);
[[nodiscard]] Tour read_tour(const std::filesystem::path& path);
// The same from a tour file's text; `origin` names it in errors.
[[nodiscard]] Tour parse_tour(const std::string& text, const std::string& origin);

}  // namespace eie::tsp
