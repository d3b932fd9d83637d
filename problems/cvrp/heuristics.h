#pragma once

// Classical CVRP baselines on Euclidean coordinates (float64).

#include <cstdint>
#include <string>
#include <vector>

#include "problems/cvrp/routes.h"

namespace eie::cvrp {

// Clarke-Wright parallel savings: start from one route per customer, merge route
// ends in decreasing order of s(i, j) = d(0, i) + d(0, j) - d(i, j) while the
// merged load fits.
[[nodiscard]] Routes savings(const CvrpData& data);

// Local search to a local optimum of: 2-opt inside a route, relocate (move one
// customer to another position, in its own or another route) and swap (exchange
// two customers of different routes), candidates restricted to each customer's
// `neighbours` nearest customers; first improvement, never violating capacity.
[[nodiscard]] Routes local_search(const CvrpData& data, Routes routes, int64_t neighbours = 20);

// Per instance, in parallel over instances (OpenMP): "savings" builds routes.
[[nodiscard]] std::vector<Routes> construct_all(const std::string& method,
                                                const std::vector<CvrpData>& instances);
// Per instance, in parallel: "local" applies local_search.
void improve_all(const std::string& method, const std::vector<CvrpData>& instances,
                 std::vector<Routes>& routes);

}  // namespace eie::cvrp
