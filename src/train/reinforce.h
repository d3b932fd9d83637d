#pragma once

// REINFORCE with Kool et al.'s greedy rollout baseline (--baseline rollout): each
// instance decoded by sampling, its cost compared with the frozen baseline policy's
// greedy cost; in the warm-up epochs, with the exponential baseline instead.

#include "src/train/algorithm.h"

namespace eie {

class Reinforce : public Algorithm {
 public:
  // `warmup`: the exponential baseline, kept where the checkpoint finds it.
  Reinforce(Agent& agent, const TrainerOptions& options, ExponentialBaseline& warmup,
            Collective* collective);
  [[nodiscard]] StepLoss loss(const Instances& batch, int64_t n, int64_t epoch,
                              torch::Generator& generator) override;
  [[nodiscard]] RolloutBaseline* baseline() override { return &baseline_; }

 private:
  Agent& agent_;                 // the policy trained
  int64_t warmup_epochs_;        // epochs with the exponential baseline
  double exp_beta_;              // its decay
  ExponentialBaseline& warmup_;  // its value
  Collective* collective_;       // the job's ranks (or nullptr)
  RolloutBaseline baseline_;     // after the warm-up
};

}  // namespace eie
