#pragma once

// A parallel loop over instances for the classical heuristics.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <vector>

namespace eie {

// Runs body(i) for every instance in parallel (OpenMP, dynamic schedule) and rethrows
// the first failure after the loop: exceptions must not leave an OpenMP region.
template <class Body>
void parallel_over(int64_t count, const Body& body) {
  std::vector<std::exception_ptr> errors(static_cast<size_t>(count));
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

// search(i, seconds_i, seed + i) for every instance in parallel, all of them within
// `seconds`: the instances run in waves of one per thread, each its wave's share.
template <class Search>
void search_each(int64_t count, double seconds, uint64_t seed, const Search& search) {
  if (count == 0) return;
  const int64_t threads = std::max(1, omp_get_max_threads());
  const double each = seconds / static_cast<double>((count + threads - 1) / threads);
  parallel_over(count, [&](int64_t i) { search(i, each, seed + static_cast<uint64_t>(i)); });
}

}  // namespace eie
