#pragma once

// Batch normalisation over the batch of every rank of a data-parallel job
// (synchronised batch normalisation): the statistics of the global batch, as one
// process training on all of it would compute them.

#include <torch/torch.h>

#include "src/parallel/collective.h"

namespace eie::nn {

// While one lives on this thread, the encoder's batch normalisation in training mode
// takes its mean and variance over all ranks' rows (and their gradients flow back
// through the same sums). Every rank must run the same forward and backward passes.
class SyncBatchStatistics {
 public:
  explicit SyncBatchStatistics(Collective& collective);
  ~SyncBatchStatistics();
  SyncBatchStatistics(const SyncBatchStatistics&) = delete;
  SyncBatchStatistics& operator=(const SyncBatchStatistics&) = delete;
  // The collective of the innermost live guard on this thread, or nullptr.
  [[nodiscard]] static Collective* active();

 private:
  Collective* previous_;
};

// Training-mode batch normalisation of rows x [N, E] by `norm`'s weights, with the
// mean and (biased) variance of all ranks' rows; updates the running statistics as
// torch::nn::BatchNorm1d does, from the global batch.
[[nodiscard]] torch::Tensor synced_batch_norm(const torch::Tensor& x,
                                              torch::nn::BatchNorm1dImpl& norm,
                                              Collective& collective);

}  // namespace eie::nn
