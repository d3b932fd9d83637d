#include "problems/tsp/tour.h"

#include <stdexcept>
#include <string>

namespace eie::tsp {

void check_tour(const Tour& tour, int64_t n) {
  if (static_cast<int64_t>(tour.size()) != n) {
    throw std::logic_error("tour has " + std::to_string(tour.size()) + " steps for " +
                           std::to_string(n) + " cities");
  }
  std::vector<bool> seen(n, false);
  for (const auto city : tour) {
    if (city < 0 || city >= n)
      throw std::logic_error("tour visits unknown city " + std::to_string(city));
    if (seen[city]) throw std::logic_error("tour visits city " + std::to_string(city) + " twice");
    seen[city] = true;
  }
}

double tour_length(const std::vector<Point>& cities, const Tour& tour) {
  double length = 0;
  for (size_t i = 0; i < tour.size(); ++i) {
    length += distance(cities[tour[i]], cities[tour[(i + 1) % tour.size()]]);
  }
  return length;
}

}  // namespace eie::tsp
