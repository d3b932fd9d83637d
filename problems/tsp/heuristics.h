#pragma once

// Classical TSP baselines on Euclidean coordinates.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

// Greedy: from city 0, always go to the nearest unvisited city.
[[nodiscard]] Tour nearest_neighbour(const std::vector<Point>& cities);

// Insert the city farthest from the partial tour at its cheapest position.
[[nodiscard]] Tour farthest_insertion(const std::vector<Point>& cities);

// Local search restricted to each city's `neighbours` nearest cities, with
// don't-look bits, until no candidate move improves the tour: 2-opt moves, and with
// `or_opt` also Or-opt moves (a segment of 1-3 cities moved between two adjacent
// cities near one of its ends, in either orientation).
[[nodiscard]] Tour local_search(const std::vector<Point>& cities, Tour tour, bool or_opt,
                                int64_t neighbours = 10);
[[nodiscard]] inline Tour two_opt(const std::vector<Point>& cities, Tour tour) {
  return local_search(cities, std::move(tour), false);
}

// Each of `tours` improved by local_search, in parallel over instances (OpenMP).
void local_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                      bool or_opt);

// "nn" or "farthest": one tour per instance, in parallel over instances.
[[nodiscard]] std::vector<Tour> construct_all(const std::string& method,
                                              const std::vector<std::vector<Point>>& cities);

}  // namespace eie::tsp
