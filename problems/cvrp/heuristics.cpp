#include "problems/cvrp/heuristics.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>

#include "problems/common/parallel.h"

namespace eie::cvrp {

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

}  // namespace eie::cvrp
