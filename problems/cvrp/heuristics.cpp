#include "problems/cvrp/heuristics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <numeric>
#include <stdexcept>
#include <string>

namespace eie::cvrp {

namespace {

// The same tolerance as check_routes: a route filled exactly to the capacity by
// a sum of doubles is feasible.
double capacity_limit(const CvrpData& data) { return data.capacity * (1 + 1e-9); }

// Nodes 0 (depot) and 1..n (customers) in one array, so moves need no special case.
std::vector<Point> node_points(const CvrpData& data) {
  std::vector<Point> nodes{data.depot};
  nodes.insert(nodes.end(), data.customers.begin(), data.customers.end());
  return nodes;
}

// Runs body(i) for every instance in parallel and rethrows the first failure
// after the loop: exceptions must not leave an OpenMP region.
template <class Body>
void parallel_over(int64_t count, const Body& body) {
  std::vector<std::exception_ptr> errors(count);
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < count; ++i) {
    try {
      body(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// Route state with positions, loads and neighbour lists; each try_ method tests
// one move and applies it when it shortens the routes by more than eps_.
class LocalSearch {
 public:
  LocalSearch(const CvrpData& data, const Routes& routes, int64_t neighbours)
      : nodes_(node_points(data)), demand_(nodes_.size(), 0.0), limit_(capacity_limit(data)) {
    const auto n = static_cast<int>(data.customers.size());
    for (int c = 1; c <= n; ++c) demand_[c] = data.demands[c - 1];
    route_of_.assign(n + 1, -1);
    pos_of_.assign(n + 1, -1);
    for (const auto& route : routes) {
      if (route.empty()) continue;
      routes_.emplace_back(route.begin(), route.end());
      load_.push_back(0);
      refresh(static_cast<int>(routes_.size()) - 1);
    }
    double min_x = nodes_[0].x, max_x = min_x, min_y = nodes_[0].y, max_y = min_y;
    for (const auto& p : nodes_) {
      min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
      min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
    }
    // Far above the rounding error of a gain (a few ulps of the coordinates), so
    // a move and its inverse can never both look improving.
    eps_ = 1e-10 * std::max(max_x - min_x, max_y - min_y);
    const int k = static_cast<int>(std::min<int64_t>(neighbours, n - 1));
    near_.assign(n + 1, {});
    std::vector<int> order(n);
    for (int u = 1; u <= n; ++u) {
      std::iota(order.begin(), order.end(), 1);
      std::vector<double> to_u(n + 1);
      for (int v = 1; v <= n; ++v) to_u[v] = d(u, v);
      to_u[u] = -1;  // u itself sorts first and is dropped
      const auto closer = [&](int a, int b) {
        return to_u[a] < to_u[b] || (to_u[a] == to_u[b] && a < b);
      };
      std::partial_sort(order.begin(), order.begin() + k + 1, order.end(), closer);
      near_[u].assign(order.begin() + 1, order.begin() + k + 1);
    }
  }

  Routes run() {
    const auto n = static_cast<int>(route_of_.size()) - 1;
    bool improved = true;
    while (improved) {
      improved = false;
      for (int u = 1; u <= n; ++u) {
        for (const int v : near_[u]) {
          if (try_relocate(u, v, true) || try_relocate(u, v, false) || try_swap(u, v) ||
              try_two_opt(u, v)) {
            improved = true;
          }
        }
      }
    }
    Routes out;
    for (const auto& route : routes_) out.emplace_back(route.begin(), route.end());
    return out;
  }

 private:
  [[nodiscard]] double d(int a, int b) const {
    const double dx = nodes_[a].x - nodes_[b].x, dy = nodes_[a].y - nodes_[b].y;
    return std::sqrt(dx * dx + dy * dy);
  }
  [[nodiscard]] int prev(int c) const {
    return pos_of_[c] == 0 ? 0 : routes_[route_of_[c]][pos_of_[c] - 1];
  }
  [[nodiscard]] int next(int c) const {
    const auto& route = routes_[route_of_[c]];
    return pos_of_[c] + 1 == static_cast<int>(route.size()) ? 0 : route[pos_of_[c] + 1];
  }

  // Positions, route index and load of route r after it changed.
  void refresh(int r) {
    double load = 0;
    const auto& route = routes_[r];
    for (int i = 0; i < static_cast<int>(route.size()); ++i) {
      route_of_[route[i]] = r, pos_of_[route[i]] = i;
      load += demand_[route[i]];
    }
    load_[r] = load;
  }

  // Relocate: move u next to v (after v, or before it), in v's route.
  bool try_relocate(int u, int v, bool after) {
    if (after ? next(v) == u : prev(v) == u) return false;  // u already there
    const int ru = route_of_[u], rv = route_of_[v];
    if (ru != rv && load_[rv] + demand_[u] > limit_) return false;
    const int a = after ? v : prev(v), b = after ? next(v) : v;
    const int pu = prev(u), nu = next(u);
    const double gain = d(pu, u) + d(u, nu) - d(pu, nu) - (d(a, u) + d(u, b) - d(a, b));
    if (gain <= eps_) return false;
    auto& from = routes_[ru];
    from.erase(from.begin() + pos_of_[u]);
    auto& to = routes_[rv];
    int at = pos_of_[v] + (after ? 1 : 0);
    if (ru == rv && pos_of_[v] > pos_of_[u]) --at;  // v moved left by the erase
    to.insert(to.begin() + at, u);
    refresh(rv);
    if (ru != rv) {
      if (from.empty()) {
        drop_route(ru);
      } else {
        refresh(ru);
      }
    }
    return true;
  }

  // Swap: exchange u and v, which are in different routes.
  bool try_swap(int u, int v) {
    const int ru = route_of_[u], rv = route_of_[v];
    if (ru == rv) return false;
    if (load_[ru] - demand_[u] + demand_[v] > limit_) return false;
    if (load_[rv] - demand_[v] + demand_[u] > limit_) return false;
    const int pu = prev(u), nu = next(u), pv = prev(v), nv = next(v);
    const double gain =
        d(pu, u) + d(u, nu) + d(pv, v) + d(v, nv) - (d(pu, v) + d(v, nu) + d(pv, u) + d(u, nv));
    if (gain <= eps_) return false;
    routes_[ru][pos_of_[u]] = v;
    routes_[rv][pos_of_[v]] = u;
    refresh(ru);
    refresh(rv);
    return true;
  }

  // 2-opt: reverse a segment of the route of u and v so that they become adjacent.
  bool try_two_opt(int u, int v) {
    const int r = route_of_[u];
    if (route_of_[v] != r) return false;
    if (pos_of_[u] > pos_of_[v]) std::swap(u, v);  // u first
    auto& route = routes_[r];
    const int nu = next(u), nv = next(v), pu = prev(u), pv = prev(v);
    // Edges (u, nu), (v, nv) become (u, v), (nu, nv): reverse nu..v.
    if (nu != v && d(u, nu) + d(v, nv) - d(u, v) - d(nu, nv) > eps_) {
      std::reverse(route.begin() + pos_of_[u] + 1, route.begin() + pos_of_[v] + 1);
      refresh(r);
      return true;
    }
    // Edges (pu, u), (pv, v) become (pu, pv), (u, v): reverse u..pv.
    if (pv != u && d(pu, u) + d(pv, v) - d(pu, pv) - d(u, v) > eps_) {
      std::reverse(route.begin() + pos_of_[u], route.begin() + pos_of_[v]);
      refresh(r);
      return true;
    }
    return false;
  }

  // Removes empty route r; the last route takes its index.
  void drop_route(int r) {
    const int last = static_cast<int>(routes_.size()) - 1;
    if (r != last) {
      routes_[r] = std::move(routes_[last]);
      load_[r] = load_[last];
      refresh(r);
    }
    routes_.pop_back();
    load_.pop_back();
  }

  std::vector<Point> nodes_;              // depot (0) and customers (1..n)
  std::vector<double> demand_;            // per node; 0 for the depot
  double limit_ = 0;                      // capacity with check_routes' tolerance
  double eps_ = 0;                        // smallest gain that counts as an improvement
  std::vector<std::vector<int>> near_;    // near_[u]: u's nearest customers, closest first
  std::vector<std::vector<int>> routes_;  // current routes, none empty
  std::vector<int> route_of_;             // route index of each customer
  std::vector<int> pos_of_;               // position of each customer in its route
  std::vector<double> load_;              // total demand of each route
};

}  // namespace

Routes savings(const CvrpData& data) {
  data.validate();
  const auto n = static_cast<int32_t>(data.customers.size());
  const auto nodes = node_points(data);
  const double limit = capacity_limit(data);
  struct Saving {
    double value;  // d(0, i) + d(0, j) - d(i, j)
    int32_t i, j;  // customers, 0-based, i < j
  };
  std::vector<Saving> all;
  all.reserve(static_cast<size_t>(n) * (n - 1) / 2);
  std::vector<double> to_depot(n);
  for (int32_t i = 0; i < n; ++i) to_depot[i] = distance(nodes[0], nodes[i + 1]);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = i + 1; j < n; ++j) {
      const double s = to_depot[i] + to_depot[j] - distance(nodes[i + 1], nodes[j + 1]);
      if (s > 0) all.push_back({s, i, j});  // merging at no saving gains nothing
    }
  }
  std::sort(all.begin(), all.end(), [](const Saving& a, const Saving& b) {
    if (a.value != b.value) return a.value > b.value;
    return a.i != b.i ? a.i < b.i : a.j < b.j;
  });
  // Routes are paths of customers: each has up to two customer neighbours
  // (fewer at the route ends); union-find names the route and holds its load.
  std::vector<int32_t> parent(n), degree(n, 0);
  std::vector<std::array<int32_t, 2>> link(n, {-1, -1});
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<double> load(data.demands.begin(), data.demands.end());
  const auto find = [&](int32_t c) {
    while (parent[c] != c) c = parent[c] = parent[parent[c]];
    return c;
  };
  for (const auto& s : all) {
    if (degree[s.i] == 2 || degree[s.j] == 2) continue;  // interior customer
    const int32_t ri = find(s.i), rj = find(s.j);
    if (ri == rj || load[ri] + load[rj] > limit) continue;
    link[s.i][degree[s.i]++] = s.j;
    link[s.j][degree[s.j]++] = s.i;
    parent[rj] = ri;
    load[ri] += load[rj];
  }
  Routes routes;
  std::vector<bool> placed(n, false);
  for (int32_t start = 0; start < n; ++start) {
    if (placed[start] || degree[start] == 2) continue;
    Route route;
    int32_t previous = -1, c = start;
    while (c != -1) {
      route.push_back(c + 1);
      placed[c] = true;
      int32_t following = -1;
      for (int32_t k = 0; k < degree[c]; ++k) {
        if (link[c][k] != previous) following = link[c][k];
      }
      previous = c, c = following;
    }
    routes.push_back(std::move(route));
  }
  return routes;
}

Routes local_search(const CvrpData& data, Routes routes, int64_t neighbours) {
  if (neighbours < 1) {
    throw std::invalid_argument("neighbours must be at least 1, got " + std::to_string(neighbours));
  }
  check_routes(data, routes);
  return LocalSearch(data, routes, neighbours).run();
}

std::vector<Routes> construct_all(const std::string& method,
                                  const std::vector<CvrpData>& instances) {
  if (method != "savings") {
    throw std::invalid_argument("unknown CVRP construction '" + method + "' (savings)");
  }
  std::vector<Routes> routes(instances.size());
  parallel_over(static_cast<int64_t>(instances.size()),
                [&](int64_t i) { routes[i] = savings(instances[i]); });
  return routes;
}

void improve_all(const std::string& method, const std::vector<CvrpData>& instances,
                 std::vector<Routes>& routes) {
  if (method != "local") {
    throw std::invalid_argument("unknown CVRP improvement '" + method + "' (local)");
  }
  if (routes.size() != instances.size()) {
    throw std::invalid_argument("improve_all: " + std::to_string(routes.size()) +
                                " solutions for " + std::to_string(instances.size()) +
                                " instances");
  }
  parallel_over(static_cast<int64_t>(instances.size()),
                [&](int64_t i) { routes[i] = local_search(instances[i], routes[i]); });
}

}  // namespace eie::cvrp
