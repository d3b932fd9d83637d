#pragma once

// Local search on CVRP routes over Euclidean coordinates (float64): descents to a local
// optimum, and the iterated search that ruins and recreates part of a local optimum and
// descends again while time is left.

#include <cstdint>
#include <string>
#include <vector>

#include "problems/cvrp/routes.h"

namespace eie::cvrp {

// Local search to a local optimum of: 2-opt inside a route, relocate (move one
// customer to another position, in its own or another route) and swap (exchange
// two customers of different routes), candidates restricted to each customer's
// `neighbours` nearest customers; first improvement, never violating capacity.
[[nodiscard]] Routes local_search(const CvrpData& data, Routes routes, int64_t neighbours = 20);

// Iterated local search for `seconds`: local_search, then kicks (a random customer and
// up to 14 of its nearest customers removed and reinserted where each adds the least
// length) each followed by local_search; routes no longer than the ones before are
// kept, longer ones undone. Never longer than local_search's routes from the same start.
[[nodiscard]] Routes iterated_search(const CvrpData& data, const Routes& routes, double seconds,
                                     uint64_t seed, int64_t neighbours = 20);

// Per instance, in parallel: "local" applies local_search.
void improve_all(const std::string& method, const std::vector<CvrpData>& instances,
                 std::vector<Routes>& routes);

// Each of `routes` improved by iterated_search, in parallel over instances, all within
// `seconds` (instance i draws its kicks from seed + i).
void iterated_search_all(const std::vector<CvrpData>& instances, std::vector<Routes>& routes,
                         double seconds, uint64_t seed);

}  // namespace eie::cvrp
