#pragma once

#include <cstdint>
#include <vector>

#include "problems/common/point.h"

namespace eie::tsp {

using Tour = std::vector<int64_t>;  // city indices in visiting order, 0-based

// Throws std::logic_error unless `tour` visits each of the n cities exactly once.
void check_tour(const Tour& tour, int64_t n);

// Closed tour length (last city back to the first), in float64.
[[nodiscard]] double tour_length(const std::vector<Point>& cities, const Tour& tour);

}  // namespace eie::tsp
