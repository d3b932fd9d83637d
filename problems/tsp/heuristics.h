#pragma once

// Classical TSP baselines on Euclidean coordinates.

#include <cstdint>
#include <string>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

// Greedy: from city 0, always go to the nearest unvisited city.
[[nodiscard]] Tour nearest_neighbour(const std::vector<Point>& cities);

// Insert the city farthest from the partial tour at its cheapest position.
[[nodiscard]] Tour farthest_insertion(const std::vector<Point>& cities);

// "nn" or "farthest": one tour per instance, in parallel over instances.
[[nodiscard]] std::vector<Tour> construct_all(const std::string& method,
                                              const std::vector<std::vector<Point>>& cities);

}  // namespace eie::tsp
