#include "problems/cvrp/local_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "problems/common/parallel.h"

namespace eie::cvrp {

namespace {

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
    load(routes);
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

  // The routes searched from now on (feasible, every customer once).
  void load(const Routes& routes) {
    routes_.clear();
    load_.clear();
    for (const auto& route : routes) {
      if (route.empty()) continue;
      routes_.emplace_back(route.begin(), route.end());
      load_.push_back(0);
      refresh(static_cast<int>(routes_.size()) - 1);
    }
  }

  // Applies improving moves until none is left.
  void run() {
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
  }

  [[nodiscard]] Routes routes() const {
    Routes out;
    for (const auto& route : routes_) out.emplace_back(route.begin(), route.end());
    return out;
  }
  // A kick: customer u and up to count - 1 of its nearest customers leave their routes
  // (ruin), then each goes back, in random order, where it adds the least length among
  // the positions its demand fits, or onto a route of its own (recreate).
  void ruin_and_recreate(int u, int count, std::mt19937_64& random) {
    std::vector<int> removed{u};
    for (const int v : near_[u]) {
      if (static_cast<int>(removed.size()) >= count) break;
      removed.push_back(v);
    }
    for (const int c : removed) {
      const int r = route_of_[c];
      routes_[r].erase(routes_[r].begin() + pos_of_[c]);
      if (routes_[r].empty()) {
        drop_route(r);
      } else {
        refresh(r);
      }
    }
    std::shuffle(removed.begin(), removed.end(), random);
    for (const int c : removed) {
      double cheapest = std::numeric_limits<double>::infinity();
      int best_route = -1, best_at = 0;
      for (int r = 0; r < static_cast<int>(routes_.size()); ++r) {
        if (load_[r] + demand_[c] > limit_) continue;
        const auto& route = routes_[r];
        for (int at = 0; at <= static_cast<int>(route.size()); ++at) {
          const int before = at == 0 ? 0 : route[at - 1];
          const int after = at == static_cast<int>(route.size()) ? 0 : route[at];
          const double added = d(before, c) + d(c, after) - d(before, after);
          if (added < cheapest) cheapest = added, best_route = r, best_at = at;
        }
      }
      if (best_route < 0) {
        best_route = static_cast<int>(routes_.size());
        routes_.emplace_back();
        load_.push_back(0);
      }
      routes_[best_route].insert(routes_[best_route].begin() + best_at, c);
      refresh(best_route);
    }
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

// The most customers one kick removes: a neighbourhood, so that the local search after
// it repairs a few routes (ruin and recreate as in Schrimpf et al. 2000).
constexpr int kMostRuined = 15;

// The local search on `routes`, run to a local optimum, after checking them.
LocalSearch descended(const CvrpData& data, const Routes& routes, int64_t neighbours) {
  if (neighbours < 1) {
    throw std::invalid_argument("neighbours must be at least 1, got " + std::to_string(neighbours));
  }
  check_routes(data, routes);
  LocalSearch search(data, routes, neighbours);
  search.run();
  return search;
}

}  // namespace

Routes local_search(const CvrpData& data, Routes routes, int64_t neighbours) {
  return descended(data, routes, neighbours).routes();
}

Routes iterated_search(const CvrpData& data, const Routes& routes, double seconds, uint64_t seed,
                       int64_t neighbours) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto search = descended(data, routes, neighbours);
  auto kept = search.routes();
  const auto n = static_cast<int>(data.customers.size());
  if (n < 2) return kept;
  double kept_length = routes_length(data, kept);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> customer(1, n);
  // A customer and its nearest: at most its candidate list (neighbours, or every other).
  const auto most =
      static_cast<int>(std::min<int64_t>(kMostRuined, 1 + std::min<int64_t>(neighbours, n - 1)));
  std::uniform_int_distribution<int> ruined(std::min(2, most), most);
  while (std::chrono::steady_clock::now() < deadline) {
    search.ruin_and_recreate(customer(random), ruined(random), random);
    search.run();
    auto trial = search.routes();
    const double length = routes_length(data, trial);
    if (length <= kept_length) {
      kept = std::move(trial), kept_length = length;
    } else {
      search.load(kept);
    }
  }
  return kept;
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

void iterated_search_all(const std::vector<CvrpData>& instances, std::vector<Routes>& routes,
                         double seconds, uint64_t seed) {
  search_each(static_cast<int64_t>(instances.size()), seconds, seed,
              [&](int64_t i, double each, uint64_t draws) {
                routes[i] = iterated_search(instances[i], routes[i], each, draws);
              });
}

}  // namespace eie::cvrp
