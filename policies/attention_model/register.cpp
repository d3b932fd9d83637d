// Kool et al.'s attention model in the policy registry (src/agent/policy_registry.h):
// routing problems, with the node features and step context of each.
#include <map>

#include "policies/attention_model/agent.h"
#include "policies/attention_model/kool_import.h"
#include "src/agent/policy_registry.h"

namespace eie::policy {
namespace {

// What the network reads per problem: node features, whether node 0 is a depot,
// the step context (nodes, scalars) and whether the first step has a placeholder.
struct Layout {
  int64_t node_features;
  bool depot;
  int64_t context_nodes;
  int64_t context_scalars;
  bool placeholder;
};

const std::map<std::string, Layout>& layouts() {
  static const std::map<std::string, Layout> by_problem{
      // (x, y); context [first city, current city], a placeholder before the first
      {"tsp", {2, false, 2, 0, true}},
      // (x, y, demand / capacity); context [current node, 1 - used capacity]
      {"cvrp", {3, true, 1, 1, false}},
  };
  return by_problem;
}

bool serves(const Problem& problem) {
  return layouts().count(problem.name()) > 0 &&
         dynamic_cast<const RoutingProblem*>(&problem) != nullptr;
}

std::unique_ptr<Agent> make(std::shared_ptr<const Problem> problem, const NetworkOptions& o,
                            int64_t train_n) {
  const auto& layout = layouts().at(problem->name());
  AttentionModelOptions options;
  options.encoder = o.encoder;
  options.tanh_clip = o.tanh_clip;
  options.node_features = layout.node_features;
  options.depot = layout.depot;
  options.context_nodes = layout.context_nodes;
  options.context_scalars = layout.context_scalars;
  options.placeholder = layout.placeholder;
  return std::make_unique<AttentionAgent>(
      std::dynamic_pointer_cast<const RoutingProblem>(std::move(problem)), options, train_n);
}

[[maybe_unused]] const bool registered =
    register_policy({"attention_model", serves, make, import_kool});

}  // namespace
}  // namespace eie::policy
