#pragma once

// The multi-start shared baseline (POMO, Kwon et al. 2020), with symmetric
// augmentation (Sym-NCO): each instance is decoded from K forced first actions, in
// each of its A symmetric copies, and a trajectory's advantage is its cost minus
// the mean cost of the instance's A K trajectories. No baseline policy.

#include <torch/torch.h>

#include "src/agent/agent.h"

namespace eie {

// `cost` [A B K]: K trajectories of each of B instances in each of A copies, copy
// first, then instance, then start. Returns cost minus the mean of its instance's
// A K trajectories (the advantages of one instance sum to zero).
[[nodiscard]] torch::Tensor shared_baseline_advantages(const torch::Tensor& cost, int64_t copies,
                                                       int64_t starts);

struct MultiStartLoss {
  torch::Tensor loss;  // REINFORCE loss against the shared baseline, to minimise
  double mean_cost = 0;  // of the sampled trajectories
  torch::Tensor actions;  // [A B K, T] the sampled solutions, rows as in the costs
};

// One step's loss on `batch`: its `copies` symmetric copies (1, or 8 for the
// square's symmetries), each decoded by sampling from `starts` first actions.
[[nodiscard]] MultiStartLoss multistart_loss(Agent& agent, const Instances& batch, int64_t copies,
                                             int64_t starts, torch::Generator& generator);

}  // namespace eie
