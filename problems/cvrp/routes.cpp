#include "problems/cvrp/routes.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "src/util/parse.h"

namespace eie::cvrp {

namespace {

std::string point_text(const Point& p) {
  return "(" + shortest_text(p.x) + ", " + shortest_text(p.y) + ")";
}

bool finite(const Point& p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Loads are sums of doubles: a route filled exactly to the capacity must not be
// rejected for rounding.
// The environments compare float32 sums of demand / capacity: allow their rounding.
bool fits(double load, double capacity) { return load <= capacity * (1 + 1e-6); }

}  // namespace

void CvrpData::validate() const {
  if (customers.empty()) throw std::invalid_argument("customers: need at least one, got 0");
  if (!finite(depot))
    throw std::invalid_argument("depot coordinates must be finite, got " + point_text(depot));
  for (size_t i = 0; i < customers.size(); ++i) {
    if (!finite(customers[i])) {
      throw std::invalid_argument("coordinates of customer " + std::to_string(i + 1) +
                                  " must be finite, got " + point_text(customers[i]));
    }
  }
  if (demands.size() != customers.size()) {
    throw std::invalid_argument("demands has " + std::to_string(demands.size()) + " entries for " +
                                std::to_string(customers.size()) + " customers");
  }
  if (!std::isfinite(capacity) || !(capacity > 0)) {
    throw std::invalid_argument("capacity must be positive and finite, got " +
                                shortest_text(capacity));
  }
  for (size_t i = 0; i < demands.size(); ++i) {
    const std::string what = "demand of customer " + std::to_string(i + 1) + " is ";
    if (!std::isfinite(demands[i]) || !(demands[i] > 0)) {
      throw std::invalid_argument(what + shortest_text(demands[i]) +
                                  ", must be positive and finite");
    }
    if (demands[i] > capacity) {
      throw std::invalid_argument(what + shortest_text(demands[i]) + ", above the capacity " +
                                  shortest_text(capacity));
    }
  }
}

Routes routes_of_actions(const std::vector<int64_t>& actions) {
  // Ids are passed through unchecked: check_routes reports bad ones.
  Routes routes;
  Route current;
  for (const auto action : actions) {
    if (action != 0) {
      current.push_back(action);
    } else if (!current.empty()) {
      routes.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) routes.push_back(std::move(current));  // return to depot is implicit
  return routes;
}

std::vector<int64_t> actions_of_routes(const Routes& routes) {
  std::vector<int64_t> actions;
  for (const auto& route : routes) {
    if (route.empty()) continue;  // "0" alone would decode to nothing anyway
    actions.insert(actions.end(), route.begin(), route.end());
    actions.push_back(0);
  }
  return actions;
}

void check_routes(const CvrpData& data, const Routes& routes) {
  const auto n = static_cast<int64_t>(data.customers.size());
  // Route (1-based) that visits each customer, 0 when not visited yet.
  std::vector<size_t> visited_by(n + 1, 0);
  for (size_t r = 0; r < routes.size(); ++r) {
    double load = 0;
    for (const auto c : routes[r]) {
      if (c < 1 || c > n) {
        throw std::logic_error("route " + std::to_string(r + 1) + " visits " + std::to_string(c) +
                               ", outside the customers 1.." + std::to_string(n));
      }
      if (visited_by[c] != 0) {
        throw std::logic_error("customer " + std::to_string(c) + " is visited twice (routes " +
                               std::to_string(visited_by[c]) + " and " + std::to_string(r + 1) +
                               ")");
      }
      visited_by[c] = r + 1;
      load += data.demands[c - 1];
    }
    if (!fits(load, data.capacity)) {
      throw std::logic_error("route " + std::to_string(r + 1) + " carries " + shortest_text(load) +
                             ", above the capacity " + shortest_text(data.capacity));
    }
  }
  int64_t missing = 0, first_missing = 0;
  for (int64_t c = n; c >= 1; --c) {
    if (visited_by[c] == 0) ++missing, first_missing = c;
  }
  if (missing > 0) {
    throw std::logic_error("customer " + std::to_string(first_missing) + " is not visited (" +
                           std::to_string(missing) + " of " + std::to_string(n) +
                           " customers missing)");
  }
}

double routes_length(const CvrpData& data, const Routes& routes) {
  const auto n = static_cast<int64_t>(data.customers.size());
  const auto at = [&](int64_t c) -> const Point& {
    if (c < 1 || c > n) {
      throw std::logic_error("route visits " + std::to_string(c) + ", outside the customers 1.." +
                             std::to_string(n));
    }
    return data.customers[c - 1];
  };
  double length = 0;
  for (const auto& route : routes) {
    if (route.empty()) continue;
    length += distance(data.depot, at(route.front()));
    for (size_t i = 0; i + 1 < route.size(); ++i)
      length += distance(at(route[i]), at(route[i + 1]));
    length += distance(at(route.back()), data.depot);
  }
  return length;
}

double capacity_limit(const CvrpData& data) { return data.capacity * (1 + 1e-9); }

std::vector<Point> node_points(const CvrpData& data) {
  std::vector<Point> nodes{data.depot};
  nodes.insert(nodes.end(), data.customers.begin(), data.customers.end());
  return nodes;
}

}  // namespace eie::cvrp
