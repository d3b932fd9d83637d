#include "problems/tsp/heuristics.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "problems/common/point_grid.h"

namespace eie::tsp {

Tour nearest_neighbour(const std::vector<Point>& cities) {
  const auto n = static_cast<int64_t>(cities.size());
  PointGrid unvisited(cities);
  unvisited.remove(0);
  Tour tour{0};
  for (int64_t step = 1; step < n; ++step) {
    const int64_t next = unvisited.nearest_to(cities[tour.back()]);
    unvisited.remove(next);
    tour.push_back(next);
  }
  return tour;
}

Tour farthest_insertion(const std::vector<Point>& cities) {
  const auto n = static_cast<int64_t>(cities.size());
  // Distance from each city to the partial tour; -1 once inserted.
  std::vector<double> to_tour(n);
  for (int64_t j = 0; j < n; ++j) to_tour[j] = distance(cities[0], cities[j]);
  to_tour[0] = -1;
  Tour tour{0};
  for (int64_t step = 1; step < n; ++step) {
    const auto next = std::max_element(to_tour.begin(), to_tour.end()) - to_tour.begin();
    // Cheapest edge (tour[i], tour[i+1]) to break for `next`.
    size_t best_i = 0;
    double best_cost = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < tour.size(); ++i) {
      const auto& a = cities[tour[i]];
      const auto& b = cities[tour[(i + 1) % tour.size()]];
      const double cost = distance(a, cities[next]) + distance(cities[next], b) - distance(a, b);
      if (cost < best_cost) best_cost = cost, best_i = i;
    }
    tour.insert(tour.begin() + static_cast<int64_t>(best_i) + 1, next);
    to_tour[next] = -1;
    for (int64_t j = 0; j < n; ++j) {
      if (to_tour[j] >= 0) to_tour[j] = std::min(to_tour[j], distance(cities[next], cities[j]));
    }
  }
  return tour;
}

std::vector<Tour> construct_all(const std::string& method,
                                const std::vector<std::vector<Point>>& cities) {
  Tour (*build)(const std::vector<Point>&) = nullptr;
  if (method == "nn") build = nearest_neighbour;
  if (method == "farthest") build = farthest_insertion;
  if (build == nullptr)
    throw std::invalid_argument("unknown TSP method '" + method + "' (nn, farthest)");
  std::vector<Tour> tours(cities.size());
  const auto count = static_cast<int64_t>(cities.size());
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < count; ++i) tours[i] = build(cities[i]);
  return tours;
}

}  // namespace eie::tsp
