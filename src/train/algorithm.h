#pragma once

// How a batch of instances becomes a loss: the seam between the trainer, which owns
// the loop, the optimiser, the clocks and the run directory, and a training algorithm
// (rl4co's split of environment, policy and algorithm). A new algorithm is a class
// of its own file and a line in make_algorithm().

#include <torch/torch.h>

#include <cstdint>
#include <memory>

#include "src/agent/agent.h"
#include "src/parallel/collective.h"
#include "src/train/rollout_baseline.h"
#include "src/train/trainer_options.h"

namespace eie {

// The loss of one step.
struct StepLoss {
  torch::Tensor loss;    // to minimise
  double mean_cost = 0;  // of the step's sampled (or imitated) solutions, over all ranks
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  // The loss on `batch`, this rank's share of a step's instances of size n, in `epoch`.
  [[nodiscard]] virtual StepLoss loss(const Instances& batch, int64_t n, int64_t epoch,
                                      torch::Generator& generator) = 0;
  // The rollout baseline it compares with, which the trainer tests at each epoch's
  // end, saves with the checkpoint and writes as baseline.h5 (nullptr: none).
  [[nodiscard]] virtual RolloutBaseline* baseline() { return nullptr; }
};

// The algorithm `options` choose for `agent`: imitation of options.teacher,
// multi-start REINFORCE, or REINFORCE with the rollout baseline after `warmup`, the
// exponential baseline of the first epochs (which the checkpoint carries).
[[nodiscard]] std::unique_ptr<Algorithm> make_algorithm(Agent& agent, const TrainerOptions& options,
                                                        ExponentialBaseline& warmup,
                                                        Collective* collective);

}  // namespace eie
