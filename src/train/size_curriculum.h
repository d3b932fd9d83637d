#pragma once

// Training on several instance sizes (a size curriculum): each step draws its size n
// from a range, and the step's batch shrinks as n grows so that a step costs about
// the same memory and time whatever n (a decode holds n steps of n scores per
// trajectory). The model keeps one training length N: validation runs there, and
// scale and bias policies grow from it.

#include <cstdint>
#include <string>

namespace eie {

struct SizeRange {
  int64_t min = 0;  // 0: no range, every step at N
  int64_t max = 0;
  [[nodiscard]] bool empty() const { return min == 0; }
};

// "MIN-MAX", 3 <= MIN <= MAX; std::invalid_argument otherwise.
[[nodiscard]] SizeRange parse_size_range(const std::string& text);

// The size of step `step` of epoch `epoch`: uniform over the range, a function of
// the seed alone, so every rank of a job and a resumed run draw the same sizes.
[[nodiscard]] int64_t step_size(const SizeRange& range, uint64_t seed, int64_t epoch, int64_t step);

// Instances in a step at size n for a run of `batch` instances at N: batch (N / n)^2,
// rounded to a multiple of the world size (each rank an equal share), at least one each.
[[nodiscard]] int64_t step_batch(int64_t batch, int64_t train_n, int64_t n, int64_t world_size);

}  // namespace eie
