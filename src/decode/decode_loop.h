#pragma once

#include <torch/torch.h>

#include <optional>

#include "decode/environment.h"

namespace eie {

// A policy bound to one batch (encoder already run): per step, log-probabilities
// over the actions, -inf where infeasible.
class StepPolicy {
 public:
  virtual ~StepPolicy() = default;
  [[nodiscard]] virtual torch::Tensor log_probs(const torch::Tensor& feasible) = 0;
};

// greedy: the most likely action; sample: a draw from the policy; replay: the
// given actions (teacher forcing: the log-likelihood of a known solution).
enum class Selection { greedy, sample, replay };

struct Trajectory {
  torch::Tensor actions;         // [B, T] int64
  torch::Tensor log_likelihood;  // [B], differentiable when the policy is
  torch::Tensor cost;            // [B] float32 as the environment computed it
  torch::Tensor step_log_probs;  // [B, T] log-probability of each chosen action
};

// The one decode loop: training, solve and bench all go through it.
// `replayed` [B, T] holds the actions of Selection::replay (unused otherwise).
[[nodiscard]] Trajectory decode(Environment& env, StepPolicy& policy, Selection selection,
                                std::optional<torch::Generator> generator = std::nullopt,
                                const torch::Tensor& replayed = {});

}  // namespace eie
