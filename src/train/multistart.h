#pragma once

// The multi-start shared baseline (POMO, Kwon et al. 2020), with symmetric
// augmentation (Sym-NCO): each instance is decoded from K forced first actions, in
// each of its A symmetric copies, and a trajectory's advantage is its cost minus
// the mean cost of the instance's A K trajectories. No baseline policy.

#include <torch/torch.h>

#include "src/agent/agent.h"
#include "src/train/algorithm.h"

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

// The REINFORCE term of the policy's own first action, which forcing leaves untrained
// (and greedy decoding follows): `first_log_probs` [A B K] are the log-probabilities of
// the K forced first actions, `advantage` their trajectories' advantages. Each start is
// weighted by the policy's probability of choosing it (renormalised over the K
// starts): the expectation over the first choice, taken exactly instead of sampled.
// The mean over the A B decodes, so that with uniform probabilities it weighs as much
// as the rest of a trajectory's steps.
[[nodiscard]] torch::Tensor first_choice_loss(const torch::Tensor& first_log_probs,
                                              const torch::Tensor& advantage, int64_t starts);

// One step's loss on `batch`: its `copies` symmetric copies (1, or 8 for the
// square's symmetries), each decoded by sampling from `starts` first actions; with
// `learn_first`, plus first_choice_loss().
[[nodiscard]] MultiStartLoss multistart_loss(Agent& agent, const Instances& batch, int64_t copies,
                                             int64_t starts, torch::Generator& generator,
                                             bool learn_first = false);

// Multi-start REINFORCE (--baseline multistart): multistart_loss() on every step's
// batch, from --starts first actions (default_starts() of the step's size).
class MultiStart : public Algorithm {
 public:
  MultiStart(Agent& agent, const TrainerOptions& options, Collective* collective);
  [[nodiscard]] StepLoss loss(const Instances& batch, int64_t n, int64_t epoch,
                              torch::Generator& generator) override;

 private:
  Agent& agent_;            // the policy trained
  int64_t copies_;          // symmetric copies per instance (--augment)
  int64_t starts_;          // first actions per instance (0: default_starts)
  bool learn_first_;        // also train the policy's own first action
  Collective* collective_;  // the job's ranks (or nullptr)
};

}  // namespace eie
