#pragma once

#include <torch/torch.h>

#include <memory>

#include "src/agent/agent.h"
#include "src/parallel/collective.h"

namespace eie {

// The exponential baseline of the warm-up epochs (Kool et al.): a moving mean of the
// steps' mean sampled costs.
struct ExponentialBaseline {
  double value = 0;  // the baseline
  bool set = false;  // value holds a mean

  // Moves the mean towards `mean_cost` with decay `beta` (the first cost sets it).
  double update(double mean_cost, double beta) {
    value = set ? beta * value + (1 - beta) * mean_cost : mean_cost;
    set = true;
    return value;
  }
};

// Kool et al.'s greedy rollout baseline: a frozen copy of the policy that decodes
// greedily. At each epoch end the current policy replaces it if a one-sided
// paired t-test on a held-out set (regenerated after each replacement) says it
// is better at level alpha.
class RolloutBaseline {
 public:
  struct Verdict {
    double p_value;  // one-sided, H1: candidate is better
    bool replaced;   // the candidate became the baseline
  };

  // eval_size held-out instances of size n; their seeds derive from `seed`. With a
  // collective, the ranks decode a share of them each and exchange the costs.
  RolloutBaseline(const Agent& policy, int64_t n, int64_t eval_size, uint64_t seed, double alpha,
                  Collective* collective = nullptr);

  // Greedy costs of the frozen policy [B].
  [[nodiscard]] torch::Tensor costs(const Instances& batch);
  Verdict update(const Agent& candidate);

  [[nodiscard]] Agent& agent() { return *agent_; }
  [[nodiscard]] int64_t generation() const { return generation_; }
  // Restores a saved baseline (network already loaded into agent()).
  void restore(int64_t generation);

 private:
  void prepare_eval_set();
  [[nodiscard]] std::vector<double> eval_costs(Agent& agent) const;  // on eval_set_

  std::unique_ptr<Agent> agent_;    // frozen copy, eval mode
  int64_t n_;                       // instance size of the held-out set
  int64_t eval_size_;               // held-out instances per t-test
  uint64_t seed_;                   // base seed of the held-out sets
  double alpha_;                    // significance level
  Collective* collective_;          // the job's ranks share the evaluation (or nullptr)
  int64_t generation_ = 0;          // replacements so far (selects the held-out set)
  Instances eval_set_;              // current held-out set
  std::vector<double> eval_costs_;  // the baseline's greedy costs on it
};

}  // namespace eie
