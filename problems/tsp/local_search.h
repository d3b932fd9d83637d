#pragma once

// Local search on TSP tours over Euclidean coordinates: descents to a local optimum, and
// the iterated search that kicks a local optimum and descends again while time is left.

#include <cstdint>
#include <utility>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

// Local search restricted to each city's `neighbours` nearest cities, with
// don't-look bits, until no candidate move improves the tour: 2-opt moves, and with
// `or_opt` also Or-opt moves (a segment of 1-3 cities moved between two adjacent
// cities near one of its ends, in either orientation).
[[nodiscard]] Tour local_search(const std::vector<Point>& cities, Tour tour, bool or_opt,
                                int64_t neighbours = 10);
[[nodiscard]] inline Tour two_opt(const std::vector<Point>& cities, Tour tour) {
  return local_search(cities, std::move(tour), false);
}

// Iterated local search for `seconds`: the Or-opt descent, then kicks (a double bridge
// of two adjacent segments of at most 50 cities each, at a random place) each followed
// by a descent from the kick's ends; a kicked tour no longer than the one before is kept,
// a longer one undone. Never longer than local_search's tour from the same start.
[[nodiscard]] Tour iterated_search(const std::vector<Point>& cities, Tour tour, double seconds,
                                   uint64_t seed, int64_t neighbours = 10);

// Each of `tours` improved by local_search, in parallel over instances (OpenMP).
void local_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                      bool or_opt);

// Each of `tours` improved by iterated_search, in parallel over instances (OpenMP), all
// within `seconds` (instance i draws its kicks from seed + i).
void iterated_search_all(const std::vector<std::vector<Point>>& cities, std::vector<Tour>& tours,
                         double seconds, uint64_t seed);

}  // namespace eie::tsp
