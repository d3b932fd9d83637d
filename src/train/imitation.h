#pragma once

// Imitation of a heuristic's solutions (--teacher METHOD[+IMPROVE]): the mean per-step
// cross-entropy of the teacher's solutions, replayed through the decode loop. A cheap
// warm start that REINFORCE then continues (--resume): the rollout baseline is tested
// and saved as in REINFORCE, so that the resumed run finds it.

#include <string>

#include "src/train/algorithm.h"

namespace eie {

class Imitation : public Algorithm {
 public:
  // Throws std::invalid_argument for an unknown heuristic: now, not after an epoch.
  Imitation(Agent& agent, const TrainerOptions& options, Collective* collective);
  [[nodiscard]] StepLoss loss(const Instances& batch, int64_t n, int64_t epoch,
                              torch::Generator& generator) override;
  [[nodiscard]] RolloutBaseline* baseline() override { return &baseline_; }

 private:
  Agent& agent_;              // the policy trained
  std::string teacher_;       // METHOD[+IMPROVE]
  Collective* collective_;    // the job's ranks (or nullptr)
  RolloutBaseline baseline_;  // tested and saved for the REINFORCE run that follows
};

}  // namespace eie
