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

// Per instance, in parallel over instances (OpenMP): "savings" builds routes.
[[nodiscard]] std::vector<Routes> construct_all(const std::string& method,
                                                const std::vector<CvrpData>& instances);

}  // namespace eie::cvrp
