#pragma once

#include <torch/torch.h>

#include <memory>
#include <stdexcept>

namespace eie {

// A batch of partial solutions of one problem: what is feasible next, how an
// action changes the state, and what the finished solutions cost. Knows nothing
// of networks.
class Environment {
 public:
  virtual ~Environment() = default;
  // [B, A] bool, true where an action is allowed. Every row has at least one.
  [[nodiscard]] virtual torch::Tensor feasible() const = 0;
  // action: [B] int64; finished instances receive a no-op action.
  virtual void step(const torch::Tensor& action) = 0;
  [[nodiscard]] virtual bool done() const = 0;
  // [B] bool, true for the instances whose solution is complete (done() once all are).
  [[nodiscard]] virtual torch::Tensor finished() const {
    return torch::full({feasible().size(0)}, done(), torch::TensorOptions().dtype(torch::kBool));
  }
  // Steps after which every instance is done under any feasible choices: the one
  // decode loop stops with an error beyond it, so no state can make it loop.
  [[nodiscard]] virtual int64_t max_steps() const = 0;
  // Every instance takes exactly max_steps() steps, so done() reads no device value and
  // the whole decode can be captured as one CUDA graph.
  [[nodiscard]] virtual bool steps_fixed() const { return false; }
  // [B] float32, valid once done().
  [[nodiscard]] virtual torch::Tensor cost() const = 0;
};

// What a routing policy reads from a routing environment (TSP, CVRP).
struct RoutingContext {
  torch::Tensor nodes;    // [B, k] int64: nodes whose embeddings form the step context,
                          // the current node last
  torch::Tensor scalars;  // [B, s] float32 extra context features (s may be 0)
  bool placeholder;       // no node chosen yet: the policy uses a learned placeholder
};

class RoutingEnvironment : public Environment {
 public:
  // Nodes the problem is sized by (cities; customers without the depot).
  [[nodiscard]] virtual int64_t size() const = 0;
  // [B, n', F] per-node input features (the depot first, when there is one); the
  // first two are the node's position (windows use them).
  [[nodiscard]] virtual torch::Tensor node_features() const = 0;
  // Leading rows of node_features() that are depots (embedded separately).
  [[nodiscard]] virtual int64_t depot_count() const = 0;
  [[nodiscard]] virtual RoutingContext context() const = 0;
  // The decision at hand seen on `nodes` [B, k] only: context().nodes first, in
  // their order, then candidates; `features` [B, k, F] is what the policy reads for
  // them. Actions of the view index into `nodes`. Throws where a problem has no views.
  [[nodiscard]] virtual std::unique_ptr<RoutingEnvironment> view(const torch::Tensor& /*nodes*/,
                                                                 torch::Tensor /*features*/) const {
    throw std::invalid_argument("local views (--window-at view) are not available for this problem");
  }
};

}  // namespace eie
