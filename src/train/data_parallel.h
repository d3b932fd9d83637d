#pragma once

// What keeps the ranks of a data-parallel job one model: the same starting state,
// averaged gradients, and a check that they still agree.

#include <torch/torch.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "src/parallel/collective.h"
#include "src/util/temporary_directory.h"

namespace eie {

// The bytes of `data` as a uint8 tensor (for collectives and HDF5 datasets).
[[nodiscard]] torch::Tensor bytes_of(const std::string& data);

// Every rank takes rank 0's parameters and buffers.
void broadcast_state(torch::nn::Module& network, Collective& collective);

// Replaces every gradient by its mean over ranks (one all-reduce of all of them): the
// gradient of the mean loss over the global batch when each rank's loss is the mean
// over its equal share. A parameter without a gradient here counts as zero.
void average_gradients(torch::nn::Module& network, Collective& collective);

// Throws std::runtime_error when the ranks' parameters differ (they must be
// identical after every step).
void check_ranks_agree(torch::nn::Module& network, Collective& collective);

// The bytes of rank 0's file `path`, written to `local` on the other ranks (which
// may run on machines without it); rank 0 returns `path` itself, the others `local`.
[[nodiscard]] std::filesystem::path file_from_rank_zero(const std::filesystem::path& path,
                                                        const std::filesystem::path& local,
                                                        Collective& collective);

// Rank 0's files, wherever this rank runs: on the other ranks, copies in a temporary
// directory that lives as long as this object.
class RankZeroFiles {
 public:
  explicit RankZeroFiles(Collective* collective);  // nullptr: no job, every path as given
  // file_from_rank_zero() of `path`; every rank asks for the same files in the same order.
  [[nodiscard]] std::filesystem::path get(const std::filesystem::path& path);

 private:
  Collective* collective_;                    // the job's ranks (or nullptr)
  std::optional<TemporaryDirectory> copies_;  // where the other ranks keep theirs
};

// The training generator's seed on `rank`: rank 0 keeps `seed` (so a job of one rank
// is today's run); the others draw distinct instances. `epoch` reseeds resumed ranks.
[[nodiscard]] uint64_t rank_seed(uint64_t seed, int64_t rank, int64_t epoch);

}  // namespace eie
