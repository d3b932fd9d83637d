#pragma once

// The collective operations a data-parallel training job needs, whatever carries
// them (gloo_collective.h: LibTorch's c10d over TCP). Every rank calls the same
// operations in the same order; an operation that cannot complete (a rank lost, a
// timeout) throws std::runtime_error.

#include <torch/torch.h>

#include <cstdint>

namespace eie {

class Collective {
 public:
  virtual ~Collective() = default;
  [[nodiscard]] virtual int64_t rank() const = 0;
  [[nodiscard]] virtual int64_t size() const = 0;
  // In place (a contiguous tensor): every rank ends with the element-wise sum over ranks.
  virtual void sum(torch::Tensor& tensor) = 0;
  // In place (a contiguous tensor): every rank ends with rank 0's values.
  virtual void broadcast(torch::Tensor& tensor) = 0;
};

// The rows [begin, end) of `count` that a rank handles: contiguous, sizes differing by
// at most one. Without a collective (one process): all of them.
struct Share {
  int64_t begin = 0;
  int64_t end = 0;
  [[nodiscard]] int64_t size() const { return end - begin; }
};
[[nodiscard]] Share share_of(int64_t count, const Collective* collective);

// Sums a scalar over ranks (itself without a collective).
[[nodiscard]] double sum_over_ranks(double value, Collective* collective);
// The mean of a scalar over ranks.
[[nodiscard]] double mean_over_ranks(double value, Collective* collective);
// Rank 0's value of a scalar.
[[nodiscard]] double from_rank_zero(double value, Collective* collective);

// The whole [count, ...] tensor of which this rank computed rows `share` (`part`):
// every rank gets every rank's rows (an all-gather, as a sum of zero-padded parts).
[[nodiscard]] torch::Tensor gather_rows(const torch::Tensor& part, Share share, int64_t count,
                                        Collective* collective);

}  // namespace eie
