#pragma once

// What every agent built on the shared attention encoder does the same way.

#include <functional>
#include <map>
#include <string>

#include "decode/agent.h"
#include "nn/encoder.h"

namespace eie::policy {

// The attention settings at instance size n: the scale policy of `config` for a
// network trained at size train_n, or 1/sqrt(d) everywhere when there is none.
[[nodiscard]] AttentionPlan encoder_plan(const AttentionConfig& config,
                                         const nn::EncoderOptions& encoder, int64_t train_n,
                                         int64_t n);

// Training's trajectory with gradients: `decode` runs without them, then `score`
// gives the decoded actions' per-step log-probabilities with them, every step at
// once: the values and gradients of decoding with gradients, in batched products.
[[nodiscard]] Trajectory decode_then_score(
    const std::function<Trajectory()>& decode,
    const std::function<torch::Tensor(const torch::Tensor& actions)>& score);

// Checkpoint attributes that rebuild such a network.
[[nodiscard]] std::map<std::string, h5::Attribute> encoder_spec(const std::string& problem,
                                                                const std::string& policy,
                                                                const nn::EncoderOptions& encoder,
                                                                double tanh_clip, int64_t train_n);

}  // namespace eie::policy
