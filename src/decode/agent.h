#pragma once

#include <torch/torch.h>

#include <map>
#include <memory>
#include <optional>

#include "attention/scale_policy.h"
#include "decode/decode_loop.h"
#include "decode/problem.h"
#include "io/h5_file.h"

namespace eie {

// How attention is scaled at inference: a scale policy and where it applies.
struct AttentionConfig {
  std::shared_ptr<const ScalePolicy> policy;  // null: 1/sqrt(d) everywhere (as trained)
  ScaleScope scope = ScaleScope::all;         // encoder only, or encoder and glimpse
};

// A policy network paired with its problem: what the trainer, solve and bench use.
class Agent {
 public:
  virtual ~Agent() = default;
  [[nodiscard]] virtual const Problem& problem() const = 0;
  // Runs the shared decode loop on a batch (gradients flow unless disabled by the caller).
  [[nodiscard]] virtual Trajectory rollout(const Instances& instances, Selection selection,
                                           std::optional<torch::Generator> generator) = 0;
  [[nodiscard]] virtual torch::nn::Module& network() = 0;
  // An independent deep copy (the rollout baseline).
  [[nodiscard]] virtual std::unique_ptr<Agent> clone() const = 0;
  // Everything needed to rebuild the network (checkpoint attributes).
  [[nodiscard]] virtual std::map<std::string, h5::Attribute> spec() const = 0;
  virtual void set_attention(const AttentionConfig& config) = 0;
};

}  // namespace eie
