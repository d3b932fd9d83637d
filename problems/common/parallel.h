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

// The waves in which parallel_over runs `count` bodies of equal length, one per thread
// at a time: what a time budget for all of them is divided by.
[[nodiscard]] inline int64_t waves(int64_t count) {
  const int64_t threads = std::max(1, omp_get_max_threads());
  return (count + threads - 1) / threads;
}

}  // namespace eie
