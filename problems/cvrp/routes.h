#pragma once

// One CVRP instance and its solutions in plain C++ (no tensors): what the file
// formats, the independent check and the classical heuristics share.

#include <cstdint>
#include <vector>

#include "problems/common/point.h"

namespace eie::cvrp {

// A depot, n customers with demands, and one vehicle capacity (any number of vehicles).
struct CvrpData {
  Point depot;                   // where every route starts and ends
  std::vector<Point> customers;  // n customer locations; customer i has id i + 1
  std::vector<double> demands;   // n demands, each > 0 and <= capacity (same units as capacity)
  double capacity = 0;           // vehicle capacity, > 0

  // Throws std::invalid_argument naming the field and value: n >= 1, finite
  // coordinates, 0 < demand <= capacity, capacity > 0 and finite.
  void validate() const;
};

// Customer ids (1..n) in visiting order; the depot (0) is implicit at both ends.
using Route = std::vector<int64_t>;
using Routes = std::vector<Route>;

// The decode loop's action sequence (0 = depot, customers 1..n, trailing depot
// padding allowed) as routes; empty routes (depot twice) are dropped.
[[nodiscard]] Routes routes_of_actions(const std::vector<int64_t>& actions);
// Routes as actions: each route's customers followed by 0, e.g. {{3, 5}, {2}} -> 3 5 0 2 0.
[[nodiscard]] std::vector<int64_t> actions_of_routes(const Routes& routes);

// Throws std::logic_error unless every customer 1..n appears exactly once and
// no route's load exceeds the capacity (relative tolerance 1e-6: float32 decoders).
void check_routes(const CvrpData& data, const Routes& routes);

// The capacity a route may fill in the heuristics: the capacity and rounding's room, so
// that a route filled exactly by a sum of doubles is feasible (check_routes allows more).
[[nodiscard]] double capacity_limit(const CvrpData& data);

// Nodes 0 (depot) and 1..n (customers) in one array, so moves need no special case.
[[nodiscard]] std::vector<Point> node_points(const CvrpData& data);

// Total Euclidean length of all routes (depot -> customers -> depot), float64.
[[nodiscard]] double routes_length(const CvrpData& data, const Routes& routes);

}  // namespace eie::cvrp
