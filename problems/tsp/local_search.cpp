#include "problems/tsp/local_search.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "problems/common/parallel.h"
#include "problems/common/point_grid.h"

namespace eie::tsp {

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
    if (y == p) {                   // just before p: the segment and p swap places
      exchange(after, p, last, q);  // after last ... first p q
      if (!reversed && first != last) exchange(after, last, first, p);
      return;
    }
    exchange(p, first, after, y);                 // p after ... q last ... first y
    if (after != q) exchange(p, after, q, last);  // p q ... after last ... first y
    if (!reversed && first != last) exchange(after, last, first, y);  // after first ... last y
  }
  // The `first` cities from position `at` on and the `second` after them trade places
  // (a double bridge: a B C e becomes a C B e); first + second <= size() - 2.
  void swap_segments(int64_t at, int64_t first, int64_t second) {
    scratch_.resize(static_cast<size_t>(first + second));
    for (int64_t k = 0; k < first + second; ++k) scratch_[k] = tour_[(at + k) % size()];
    std::rotate(scratch_.begin(), scratch_.begin() + first, scratch_.end());
    for (int64_t k = 0; k < first + second; ++k) {
      const int64_t i = (at + k) % size();
      tour_[i] = scratch_[k];
      pos_[tour_[i]] = i;
    }
  }
  [[nodiscard]] int64_t at(int64_t position) const { return tour_[position % size()]; }
  [[nodiscard]] const Tour& tour() const { return tour_; }

 private:
  [[nodiscard]] int64_t size() const { return static_cast<int64_t>(tour_.size()); }
  Tour tour_;                     // cities in order
  std::vector<int64_t> pos_;      // position of each city in tour_
  std::vector<int64_t> scratch_;  // swap_segments' buffer
};

// Distances between cities by index (a plain functor, so that the hot loops inline it).
struct Distances {
  const std::vector<Point>& cities;
  double operator()(int64_t a, int64_t b) const { return distance(cities[a], cities[b]); }
};

// The first improving 2-opt move at city a over its candidate list, applied: the
// length it saved (0: none; the four cities involved are queued again).
double improve_two_opt(ArrayTour& t, int64_t a, const std::vector<int64_t>& candidates,
                       const Distances& d, std::vector<int64_t>& touched) {
  for (int direction = 0; direction < 2; ++direction) {
    const int64_t b = direction == 0 ? t.next(a) : t.prev(a);
    const double d_ab = d(a, b);
    for (const int64_t c : candidates) {
      const double d_ac = d(a, c);
      if (d_ac >= d_ab) break;  // sorted lists: no gain further on
      const int64_t e = direction == 0 ? t.next(c) : t.prev(c);
      if (c == b || e == a) continue;
      const double gain = d_ab + d(c, e) - d_ac - d(b, e);
      if (gain > 1e-10) {
        // Edges (a,b),(c,e) become (a,c),(b,e).
        if (direction == 0)
          t.reverse(b, c);
        else
          t.reverse(a, e);
        touched = {a, b, c, e};
        return gain;
      }
    }
  }
  return 0;
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
// adjacent cities x, y near one of its ends, in the cheaper orientation: the length
// saved (0: not moved); x and y join `touched`.
double insert_segment(ArrayTour& t, const Segment& s, double removed,
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
        const double gain = removed - (std::min(forward, backward) - d(x, y));
        if (gain > 1e-10) {
          t.move(s.first(), s.last(), x, backward < forward);
          touched.push_back(x), touched.push_back(y);
          return gain;
        }
      }
    }
    if (s.length == 1) break;  // one end only
  }
  return 0;
}

// The first improving Or-opt move of a segment of 1-3 cities that starts or ends at
// city a: the segment leaves its place (p, segment, q becomes p, q) for a better one.
// Returns the length saved (0: none).
double improve_or_opt(ArrayTour& t, int64_t a, const std::vector<std::vector<int64_t>>& lists,
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
      if (const double gain = insert_segment(t, s, removed, lists, d, touched); gain > 0) {
        return gain;
      }
    }
  }
  return 0;
}

// A tour under local search: its cities' candidate lists and the queue of cities whose
// moves are still to be tried (don't-look bits, inverted), at first every city.
class Descent {
 public:
  Descent(const std::vector<Point>& cities, Tour tour, bool or_opt, int64_t neighbours)
      : lists_(nearest_lists(cities, neighbours)),
        d_{cities},
        or_opt_(or_opt),
        tour_(std::move(tour)),
        queue_(cities.size()),
        queued_(cities.size(), true) {
    std::iota(queue_.begin(), queue_.end(), 0);
  }

  void queue(int64_t city) {
    if (!queued_[city]) queued_[city] = true, queue_.push_back(city);
  }
  // Applies improving moves from the queued cities until none is left: the length saved.
  double run() {
    const auto n = static_cast<int64_t>(queued_.size());
    double saved = 0;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const int64_t a = queue_[head];
      queued_[a] = false;
      double gain = improve_two_opt(tour_, a, lists_[a], d_, touched_);
      if (gain == 0 && or_opt_) gain = improve_or_opt(tour_, a, lists_, d_, touched_, n);
      if (gain > 0) {
        saved += gain;
        touched_.push_back(a);
        for (const int64_t city : touched_) queue(city);
      }
    }
    queue_.clear();
    return saved;
  }
  [[nodiscard]] const Distances& d() const { return d_; }
  ArrayTour& tour() { return tour_; }

 private:
  std::vector<std::vector<int64_t>> lists_;
  Distances d_;
  bool or_opt_;
  ArrayTour tour_;
  std::vector<int64_t> queue_, touched_;
  std::vector<bool> queued_;
};

// The longest segment a kick moves: kicks stay local, so the descent after one
// repairs a neighbourhood rather than the whole tour.
constexpr int64_t kLongestKickSegment = 50;

}  // namespace

Tour local_search(const std::vector<Point>& cities, Tour tour, bool or_opt, int64_t neighbours) {
  const auto n = static_cast<int64_t>(cities.size());
  if (n < 5) return tour;
  Descent descent(cities, std::move(tour), or_opt, neighbours);
  (void)descent.run();
  return descent.tour().tour();
}

Tour iterated_search(const std::vector<Point>& cities, Tour tour, double seconds, uint64_t seed,
                     int64_t neighbours) {
  const auto n = static_cast<int64_t>(cities.size());
  if (n < 8) return local_search(cities, std::move(tour), true, neighbours);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  Descent descent(cities, std::move(tour), true, neighbours);
  (void)descent.run();
  auto& t = descent.tour();
  const auto& d = descent.d();
  ArrayTour kept = t;
  std::mt19937_64 random(seed);
  const int64_t longest = std::min(kLongestKickSegment, (n - 2) / 2);
  std::uniform_int_distribution<int64_t> position(0, n - 1), length(1, longest);
  while (std::chrono::steady_clock::now() < deadline) {
    const int64_t at = position(random), first = length(random), second = length(random);
    // a B C e: the kick's four ends and the three edges it replaces.
    const int64_t a = t.at(at + n - 1), b = t.at(at), b_last = t.at(at + first - 1);
    const int64_t c = t.at(at + first), c_last = t.at(at + first + second - 1);
    const int64_t e = t.at(at + first + second);
    const double added =
        d(a, c) + d(c_last, b) + d(b_last, e) - (d(a, b) + d(b_last, c) + d(c_last, e));
    t.swap_segments(at, first, second);
    for (const int64_t city : {a, b, b_last, c, c_last, e}) descent.queue(city);
    if (added - descent.run() <= 1e-10) {
      kept = t;  // no longer: kept, and the search goes on from it
    } else {
      t = kept;
    }
  }
  return kept.tour();
}

void local_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                      bool or_opt) {
  const auto count = static_cast<int64_t>(cities.size());
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < count; ++i) tours[i] = local_search(cities[i], tours[i], or_opt);
}

void iterated_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                         double seconds, uint64_t seed) {
  search_each(static_cast<int64_t>(cities.size()), seconds, seed,
              [&](int64_t i, double each, uint64_t draws) {
                tours[i] = iterated_search(cities[i], tours[i], each, draws);
              });
}

}  // namespace eie::tsp
