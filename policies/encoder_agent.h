#pragma once

// What every agent built on the shared attention encoder does the same way.

#include <functional>
#include <map>
#include <string>

#include "src/agent/agent.h"
#include "src/nn/encoder.h"

namespace eie::policy {

// The attention settings at instance size n: the scale policy of `config` for a
// network trained at size train_n, or 1/sqrt(d) everywhere when there is none.
[[nodiscard]] AttentionPlan encoder_plan(const AttentionConfig& config,
                                         const nn::EncoderOptions& encoder, int64_t train_n,
                                         int64_t n);

// Training's trajectory with gradients: `decode` runs without them, then `score`
// gives the decoded actions' per-step log-probabilities with them, every step at
// once: the values and gradients of decoding with gradients, in batched products.
// The log-likelihood leaves out the first `forced_steps` (forced, not chosen).
[[nodiscard]] Trajectory decode_then_score(
    const std::function<Trajectory()>& decode,
    const std::function<torch::Tensor(const torch::Tensor& actions)>& score, int64_t forced_steps);

// `instances` with each row repeated once per copy (K = copies.count), and the copies'
// first actions as forced actions [B K, 1] (undefined when the policy chooses them).
struct StartedInstances {
  Instances instances;  // [B K] rows
  torch::Tensor forced;  // [B K, 1] or undefined
  int64_t starts = 1;    // K
};
[[nodiscard]] StartedInstances with_copies(const Instances& instances, const Copies& copies);

// Checkpoint attributes that rebuild such a network.
[[nodiscard]] Attributes encoder_spec(const std::string& problem, const std::string& policy,
                                       const nn::EncoderOptions& encoder, double tanh_clip,
                                       int64_t train_n);

}  // namespace eie::policy
