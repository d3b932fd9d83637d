#include "problems/tsp/heuristics.h"

#include "problems/common/point_grid.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

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

namespace {

std::vector<std::vector<int64_t>> nearest_lists(const std::vector<Point>& cities, int64_t k) {
  const PointGrid grid(cities);
  std::vector<std::vector<int64_t>> lists(cities.size());
  for (size_t i = 0; i < cities.size(); ++i) lists[i] = grid.nearest(static_cast<int64_t>(i), k);
  return lists;
}

// A tour as an array with positions, supporting segment reversal.
class ArrayTour {
 public:
  explicit ArrayTour(Tour tour) : tour_(std::move(tour)), pos_(tour_.size()) {
    for (size_t i = 0; i < tour_.size(); ++i) pos_[tour_[i]] = static_cast<int64_t>(i);
  }
  [[nodiscard]] int64_t next(int64_t city) const { return tour_[(pos_[city] + 1) % size()]; }
  [[nodiscard]] int64_t prev(int64_t city) const {
    return tour_[(pos_[city] + size() - 1) % size()];
  }
  // Reverses the path from city `from` forward to city `to` (or, equivalently for
  // a cycle, its complement, whichever is shorter).
  void reverse(int64_t from, int64_t to) {
    int64_t i = pos_[from], j = pos_[to];
    int64_t length = (j - i + size()) % size() + 1;
    if (2 * length > size()) {  // reverse the complement instead
      std::swap(i, j);
      i = (i + 1) % size();
      j = (j + size() - 1) % size();
      length = size() - length;
    }
    for (int64_t s = 0; s < length / 2; ++s) {
      std::swap(tour_[i], tour_[j]);
      pos_[tour_[i]] = i;
      pos_[tour_[j]] = j;
      i = (i + 1) % size();
      j = (j + size() - 1) % size();
    }
  }
  // 2-opt by its edges: (a, b) and (c, e), b after a and e after c in the same
  // direction, become (a, c) and (b, e). Either direction of the cycle will do.
  void exchange(int64_t a, int64_t b, int64_t c, int64_t e) {
    if (next(a) == b) {
      reverse(b, c);
    } else {
      reverse(a, e);
    }
  }
  // Moves the cities `first` .. `last` (forward, a path not holding `after`) to
  // between `after` and its successor, reversed if asked: two or three 2-opt
  // exchanges, each reversing the shorter side, instead of rebuilding the tour.
  void move(int64_t first, int64_t last, int64_t after, bool reversed) {
    const int64_t p = prev(first), q = next(last), y = next(after);
    if (y == p) {  // just before p: the segment and p swap places
      exchange(after, p, last, q);  // after last ... first p q
      if (!reversed && first != last) exchange(after, last, first, p);
      return;
    }
    exchange(p, first, after, y);                 // p after ... q last ... first y
    if (after != q) exchange(p, after, q, last);  // p q ... after last ... first y
    if (!reversed && first != last) exchange(after, last, first, y);  // after first ... last y
  }
  [[nodiscard]] const Tour& tour() const { return tour_; }

 private:
  [[nodiscard]] int64_t size() const { return static_cast<int64_t>(tour_.size()); }
  Tour tour_;                 // cities in order
  std::vector<int64_t> pos_;  // position of each city in tour_
};

// Distances between cities by index (a plain functor, so that the hot loops inline it).
struct Distances {
  const std::vector<Point>& cities;
  double operator()(int64_t a, int64_t b) const { return distance(cities[a], cities[b]); }
};

// The first improving 2-opt move at city a over its candidate list, applied: true
// if the tour changed (the four cities involved are queued again).
bool improve_two_opt(ArrayTour& t, int64_t a, const std::vector<int64_t>& candidates,
                     const Distances& d, std::vector<int64_t>& touched) {
  for (int direction = 0; direction < 2; ++direction) {
    const int64_t b = direction == 0 ? t.next(a) : t.prev(a);
    const double d_ab = d(a, b);
    for (const int64_t c : candidates) {
      const double d_ac = d(a, c);
      if (d_ac >= d_ab) break;  // sorted lists: no gain further on
      const int64_t e = direction == 0 ? t.next(c) : t.prev(c);
      if (c == b || e == a) continue;
      if (d_ab + d(c, e) - d_ac - d(b, e) > 1e-10) {
        // Edges (a,b),(c,e) become (a,c),(b,e).
        if (direction == 0)
          t.reverse(b, c);
        else
          t.reverse(a, e);
        touched = {a, b, c, e};
        return true;
      }
    }
  }
  return false;
}

// 1-3 consecutive cities of the tour, in forward order.
struct Segment {
  int64_t cities[3];
  int64_t length;
  [[nodiscard]] int64_t first() const { return cities[0]; }
  [[nodiscard]] int64_t last() const { return cities[length - 1]; }
  [[nodiscard]] bool holds(int64_t city) const {
    return std::find(cities, cities + length, city) != cities + length;
  }
};

// The segment moved, if that saves more than `removed` costs, to between two
// adjacent cities x, y near one of its ends, in the cheaper orientation; x and y
// join `touched`.
bool insert_segment(ArrayTour& t, const Segment& s, double removed,
                    const std::vector<std::vector<int64_t>>& lists, const Distances& d,
                    std::vector<int64_t>& touched) {
  for (const int64_t end : {s.first(), s.last()}) {
    for (const int64_t c : lists[end]) {
      if (d(end, c) >= removed) break;  // the new edge at `end` alone costs the gain
      if (s.holds(c)) continue;
      for (const int64_t x : {c, t.prev(c)}) {
        const int64_t y = t.next(x);
        if (s.holds(x) || s.holds(y)) continue;
        const double forward = d(x, s.first()) + d(s.last(), y);
        const double backward = d(x, s.last()) + d(s.first(), y);
        if (removed - (std::min(forward, backward) - d(x, y)) > 1e-10) {
          t.move(s.first(), s.last(), x, backward < forward);
          touched.push_back(x), touched.push_back(y);
          return true;
        }
      }
    }
    if (s.length == 1) break;  // one end only
  }
  return false;
}

// The first improving Or-opt move of a segment of 1-3 cities that starts or ends at
// city a: the segment leaves its place (p, segment, q becomes p, q) for a better one.
bool improve_or_opt(ArrayTour& t, int64_t a, const std::vector<std::vector<int64_t>>& lists,
                    const Distances& d, std::vector<int64_t>& touched, int64_t n) {
  for (int64_t length = 1; length <= 3 && length + 3 <= n; ++length) {
    // A single city is the same segment either way.
    for (int direction = 0; direction < (length == 1 ? 1 : 2); ++direction) {
      Segment s{{}, length};
      int64_t first = a;
      for (int64_t k = 1; k < length && direction == 1; ++k) first = t.prev(first);
      for (int64_t k = 0, city = first; k < length; ++k, city = t.next(city)) s.cities[k] = city;
      const int64_t p = t.prev(s.first()), q = t.next(s.last());
      const double removed = d(p, s.first()) + d(s.last(), q) - d(p, q);
      touched = {s.first(), s.last(), p, q};
      if (insert_segment(t, s, removed, lists, d, touched)) return true;
    }
  }
  return false;
}

}  // namespace

Tour local_search(const std::vector<Point>& cities, Tour tour, bool or_opt, int64_t neighbours) {
  const auto n = static_cast<int64_t>(cities.size());
  if (n < 5) return tour;
  const auto lists = nearest_lists(cities, neighbours);
  ArrayTour t(std::move(tour));
  const Distances d{cities};
  std::vector<int64_t> queue(n), touched;
  std::iota(queue.begin(), queue.end(), 0);
  std::vector<bool> queued(n, true);  // don't-look bits, inverted
  size_t head = 0;
  while (head < queue.size()) {
    const int64_t a = queue[head++];
    queued[a] = false;
    if (improve_two_opt(t, a, lists[a], d, touched) ||
        (or_opt && improve_or_opt(t, a, lists, d, touched, n))) {
      touched.push_back(a);
      for (const int64_t city : touched) {
        if (!queued[city]) queued[city] = true, queue.push_back(city);
      }
    }
  }
  return t.tour();
}

void local_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                      bool or_opt) {
  const auto count = static_cast<int64_t>(cities.size());
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < count; ++i) tours[i] = local_search(cities[i], tours[i], or_opt);
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
