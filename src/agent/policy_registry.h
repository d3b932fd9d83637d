#pragma once

// The policy families eie knows (attention model, attend2pack, ...), each
// registered by its own folder (policies/<family>/register.cpp): the core and the
// CLI make, load and import agents only through these descriptors.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/agent/agent.h"
#include "src/nn/encoder.h"

namespace eie {

// The sizes of a network, whichever its family.
struct NetworkOptions {
  nn::EncoderOptions encoder;  // sizes of the attention encoder
  double tanh_clip = 10.0;     // pointer logit clipping
};

struct PolicyDescriptor {
  std::string name;  // the `policy` attribute of its model files ("attention_model")
  // True when the family has a network for `problem`.
  std::function<bool(const Problem& problem)> serves;
  // A fresh, randomly initialised agent for `problem`, trained at size train_n.
  std::function<std::unique_ptr<Agent>(std::shared_ptr<const Problem> problem,
                                       const NetworkOptions& options, int64_t train_n)>
      make;
  // Weights in a foreign format (e.g. Kool et al.'s reference export) as an agent for
  // `problem`; empty when the family imports nothing.
  std::function<std::unique_ptr<Agent>(const std::filesystem::path& path,
                                       std::shared_ptr<const Problem> problem)>
      import;
};

// Adds a family; throws std::logic_error if its name is taken. Returns true, so
// that a registration can initialise a static.
bool register_policy(PolicyDescriptor descriptor);

// Throws std::invalid_argument naming the known families.
[[nodiscard]] const PolicyDescriptor& policy_descriptor(const std::string& name);

// The family that serves `problem` (the first by name); std::invalid_argument if none.
[[nodiscard]] const PolicyDescriptor& policy_for(const Problem& problem);

// A fresh, randomly initialised agent for `problem`, trained at size train_n.
[[nodiscard]] std::unique_ptr<Agent> make_agent(std::shared_ptr<const Problem> problem,
                                                const NetworkOptions& options, int64_t train_n);

// Foreign weights at `path` as an agent for `problem`, by the first family that
// serves the problem and imports; std::invalid_argument if none does.
[[nodiscard]] std::unique_ptr<Agent> import_agent(const std::filesystem::path& path,
                                                  std::shared_ptr<const Problem> problem);

}  // namespace eie
