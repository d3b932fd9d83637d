// Kool et al.'s attention model in the policy registry (src/agent/policy_registry.h):
// every routing problem, with the node features and step context its layout states.
#include "policies/attention_model/agent.h"
#include "policies/attention_model/kool_import.h"
#include "src/agent/policy_registry.h"

namespace eie::policy {
namespace {

// Every routing problem: it states what its environments give (RoutingProblem::layout).
bool serves(const Problem& problem) {
  return dynamic_cast<const RoutingProblem*>(&problem) != nullptr;
}

std::unique_ptr<Agent> make(std::shared_ptr<const Problem> problem, const NetworkOptions& o,
                            int64_t train_n) {
  auto routing = std::dynamic_pointer_cast<const RoutingProblem>(std::move(problem));
  const auto layout = routing->layout();
  AttentionModelOptions options;
  options.encoder = o.encoder;
  options.tanh_clip = o.tanh_clip;
  options.node_features = layout.node_features;
  options.depot = layout.depot;
  options.context_nodes = layout.context_nodes;
  options.context_scalars = layout.context_scalars;
  options.placeholder = layout.placeholder;
  return std::make_unique<AttentionAgent>(std::move(routing), options, train_n);
}

[[maybe_unused]] const bool registered =
    register_policy({"attention_model", serves, make, import_kool});

}  // namespace
}  // namespace eie::policy
