#include "problems/tsp/tiles.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "problems/tsp/heuristics.h"
#include "problems/tsp/local_search.h"

namespace eie::tsp {

namespace {

void cut(const std::vector<Point>& cities, std::vector<int64_t> part, int64_t max_size,
         std::vector<std::vector<int64_t>>& out) {
  if (static_cast<int64_t>(part.size()) <= max_size) {
    out.push_back(std::move(part));
    return;
  }
  double min_x = cities[part[0]].x, max_x = min_x, min_y = cities[part[0]].y, max_y = min_y;
  for (const int64_t i : part) {
    min_x = std::min(min_x, cities[i].x), max_x = std::max(max_x, cities[i].x);
    min_y = std::min(min_y, cities[i].y), max_y = std::max(max_y, cities[i].y);
  }
  const bool along_x = max_x - min_x >= max_y - min_y;
  const auto coordinate = [&](int64_t i) { return along_x ? cities[i].x : cities[i].y; };
  const auto middle = part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2);
  std::nth_element(part.begin(), middle, part.end(), [&](int64_t a, int64_t b) {
    return coordinate(a) != coordinate(b) ? coordinate(a) < coordinate(b) : a < b;
  });
  cut(cities, std::vector<int64_t>(part.begin(), middle), max_size, out);
  cut(cities, std::vector<int64_t>(middle, part.end()), max_size, out);
}

// Visiting order of the tiles: a 2-opt tour over their centroids.
std::vector<int64_t> tile_order(const std::vector<Point>& cities,
                                const std::vector<Tour>& tile_tours) {
  std::vector<Point> centroids;
  for (const auto& tour : tile_tours) {
    Point c;
    for (const int64_t i : tour) c.x += cities[i].x, c.y += cities[i].y;
    const auto size = static_cast<double>(tour.size());
    centroids.push_back({c.x / size, c.y / size});
  }
  return two_opt(centroids, nearest_neighbour(centroids));
}

// A tile's closed tour opened into a path: option o removes the edge after
// position o / 2 and walks forwards (o even: entering at o / 2 + 1) or backwards
// (entering at o / 2). Positions index the tile's tour.
struct Opening {
  int64_t entry;  // position of the path's first city
  int64_t exit;   // position of the path's last city
};

Opening opening(int64_t o, int64_t size) {
  const int64_t e = o / 2, next = (e + 1) % size;
  return o % 2 == 0 ? Opening{next, e} : Opening{e, next};
}

void append_path(const Tour& tour, int64_t o, Tour& out) {
  const auto s = static_cast<int64_t>(tour.size());
  const int64_t entry = opening(o, s).entry, step = o % 2 == 0 ? 1 : s - 1;
  for (int64_t k = 0; k < s; ++k) out.push_back(tour[(entry + k * step) % s]);
}

}  // namespace

std::vector<std::vector<int64_t>> spatial_tiles(const std::vector<Point>& cities,
                                                int64_t max_size) {
  if (max_size < 5)
    throw std::invalid_argument("tiles: at most K cities per tile needs K >= 5, got " +
                                std::to_string(max_size));
  std::vector<int64_t> all(cities.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<std::vector<int64_t>> out;
  cut(cities, std::move(all), max_size, out);
  return out;
}

Tour join_tile_tours(const std::vector<Point>& cities, const std::vector<Tour>& tile_tours) {
  if (tile_tours.size() == 1) return tile_tours[0];
  const auto order = tile_order(cities, tile_tours);
  const auto m = static_cast<int64_t>(order.size());
  std::vector<const Tour*> tiles;
  for (const int64_t t : order) tiles.push_back(&tile_tours[t]);
  const auto size = [&](int64_t t) { return static_cast<int64_t>(tiles[t]->size()); };
  const auto city = [&](int64_t t, int64_t position) { return cities[(*tiles[t])[position]]; };
  // Length of the edge an option removes, and the links between consecutive tiles
  // (exit position of tile t, entry position of tile t + 1).
  std::vector<std::vector<double>> saved(m), link(m);
  for (int64_t t = 0; t < m; ++t) {
    const int64_t s = size(t), u = (t + 1) % m;
    for (int64_t o = 0; o < 2 * s; ++o) {
      const auto open = opening(o, s);
      saved[t].push_back(distance(city(t, open.entry), city(t, open.exit)));
    }
    for (int64_t x = 0; x < s; ++x) {
      for (int64_t y = 0; y < size(u); ++y) link[t].push_back(distance(city(t, x), city(u, y)));
    }
  }

  // For each option of the first tile, the best chain through the others and
  // back: per tile, the cheapest option ending at each exit, then the cheapest
  // way into each entry of the next tile (O(s^2) per tile).
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double best = kInfinity;
  std::vector<int64_t> best_choice(m);
  // Per tile t >= 1: option -> best option of tile t - 1 before it.
  std::vector<std::vector<int64_t>> parent(m);
  for (int64_t first = 0; first < 2 * size(0); ++first) {
    std::vector<double> cost(2 * size(0), kInfinity);
    cost[first] = -saved[0][first];
    for (int64_t t = 0; t + 1 < m; ++t) {
      const int64_t s = size(t), next_size = size(t + 1);
      std::vector<double> at_exit(s, kInfinity);
      std::vector<int64_t> exit_option(s, 0);
      for (int64_t o = 0; o < 2 * s; ++o) {
        const int64_t x = opening(o, s).exit;
        if (cost[o] < at_exit[x]) at_exit[x] = cost[o], exit_option[x] = o;
      }
      std::vector<double> at_entry(next_size, kInfinity);
      std::vector<int64_t> entry_option(next_size, 0);
      for (int64_t x = 0; x < s; ++x) {
        if (at_exit[x] == kInfinity) continue;
        const double* row = &link[t][x * next_size];
        for (int64_t y = 0; y < next_size; ++y) {
          const double c = at_exit[x] + row[y];
          if (c < at_entry[y]) at_entry[y] = c, entry_option[y] = exit_option[x];
        }
      }
      cost.assign(2 * next_size, 0);
      parent[t + 1].assign(2 * next_size, 0);
      for (int64_t o = 0; o < 2 * next_size; ++o) {
        const int64_t y = opening(o, next_size).entry;
        cost[o] = at_entry[y] - saved[t + 1][o];
        parent[t + 1][o] = entry_option[y];
      }
    }
    const int64_t s = size(m - 1), first_entry = opening(first, size(0)).entry;
    for (int64_t o = 0; o < 2 * s; ++o) {
      const double total = cost[o] + link[m - 1][opening(o, s).exit * size(0) + first_entry];
      if (total < best) {
        best = total;
        best_choice[m - 1] = o;
        for (int64_t t = m - 1; t > 0; --t) best_choice[t - 1] = parent[t][best_choice[t]];
      }
    }
  }
  Tour tour;
  tour.reserve(cities.size());
  for (int64_t t = 0; t < m; ++t) append_path(*tiles[t], best_choice[t], tour);
  return tour;
}

}  // namespace eie::tsp
