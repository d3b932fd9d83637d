#pragma once

// Classical TSP baselines on Euclidean coordinates.

#include <cstdint>
#include <string>
#include <vector>

#include "common/point.h"
#include "tsp/tour.h"

namespace eie::tsp {

// Greedy: from city 0, always go to the nearest unvisited city.
[[nodiscard]] Tour nearest_neighbour(const std::vector<Point>& cities);

// Insert the city farthest from the partial tour at its cheapest position.
[[nodiscard]] Tour farthest_insertion(const std::vector<Point>& cities);

// 2-opt local search restricted to each city's `neighbours` nearest cities, with
// don't-look bits; returns a 2-optimal tour (w.r.t. those candidate moves).
[[nodiscard]] Tour two_opt(const std::vector<Point>& cities, Tour tour, int64_t neighbours = 10);

// Each of `tours` improved by two_opt, in parallel over instances (OpenMP).
void two_opt_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours);

// "nn" or "farthest": one tour per instance, in parallel over instances.
[[nodiscard]] std::vector<Tour> construct_all(const std::string& method,
                                              const std::vector<std::vector<Point>>& cities);

}  // namespace eie::tsp
