#pragma once

#include <torch/torch.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/problem/environment.h"
#include "src/problem/instances.h"
#include "src/problem/tiling.h"

namespace eie {

// What users read for a solution: the cost itself (lower is better), or minus
// the cost under another name for problems that maximise (e.g. a load rate).
struct Objective {
  std::string name;  // "cost", "load_rate", ...
  bool negated;      // value shown = -cost
  [[nodiscard]] double shown(double cost) const { return negated ? -cost : cost; }
};

// A combinatorial problem: instances, their generator, environments and an
// independent check of finished solutions. Nothing of networks.
class Problem {
 public:
  virtual ~Problem() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual Objective objective() const { return {"cost", false}; }
  // Fresh instances of size n, drawn from `generator`.
  [[nodiscard]] virtual Instances generate(int64_t count, int64_t n,
                                           torch::Generator& generator) const = 0;
  // Throws std::invalid_argument naming the field when instances are not valid.
  virtual void validate(const Instances& instances) const = 0;
  // The size n that the scale policies see.
  [[nodiscard]] virtual int64_t size(const Instances& instances) const = 0;
  // Independent of the environment: throws std::logic_error if any solution is
  // infeasible, otherwise returns the costs [B] (float64).
  [[nodiscard]] virtual torch::Tensor check(const Instances& instances,
                                            const torch::Tensor& actions) const = 0;
  // Per-instance values users read, from checked costs [B] (float64).
  [[nodiscard]] virtual std::map<std::string, torch::Tensor> measures(
      const Instances& /*instances*/, const torch::Tensor& costs) const {
    return {{"cost", costs}};
  }
  // A bound no solution's cost goes below, per instance [B] (float64); throws
  // std::invalid_argument for problems without one.
  [[nodiscard]] virtual torch::Tensor cost_bound(const Instances& /*instances*/) const {
    throw std::invalid_argument("problem '" + name() + "' has no cost bound");
  }
  // Multi-start: K distinct feasible first actions per instance [B, K], spread evenly
  // over its first choices (cities, customers, boxes: size() of them); throws
  // std::invalid_argument unless 1 <= K <= size().
  [[nodiscard]] virtual torch::Tensor start_actions(const Instances& instances,
                                                    int64_t K) const = 0;
  // Relabelling, for equivariance checks: `instances` with the nodes it is sized by
  // reordered so that node j of the result is node perm[j] ([size()] int64) of the
  // original; and a solution of such permuted instances in the original's labels.
  // A shorter perm (distinct indices) keeps only the nodes it names.
  [[nodiscard]] virtual Instances permute(const Instances& instances,
                                          const torch::Tensor& perm) const = 0;
  [[nodiscard]] virtual torch::Tensor unpermute(const torch::Tensor& actions,
                                                const torch::Tensor& perm) const = 0;
  // The instances cut down to their first m nodes (m <= size()): the draws of a larger
  // size that a smaller one shares, for measurements paired across sizes.
  [[nodiscard]] Instances first_nodes(const Instances& instances, int64_t m) const {
    return permute(instances, torch::arange(m, torch::kLong));
  }
  // The instance under cost-preserving transformations, the identity first (for aug8).
  [[nodiscard]] virtual std::vector<Instances> symmetries(const Instances& instances) const = 0;
  // The instance as the policy sees it turned by `radians` (augK, K > 8): the same nodes
  // under the same labels, so that its solutions are the instance's, but not its costs
  // (check() gives those). std::invalid_argument where a problem has no such views.
  [[nodiscard]] virtual Instances rotated(const Instances& /*instances*/,
                                          double /*radians*/) const {
    throw std::invalid_argument("problem '" + name() + "' has no rotated views (augK, K > 8)");
  }
  // Classical construction heuristic `method`: actions [B, T] in the decode loop's form.
  [[nodiscard]] virtual torch::Tensor construct(const std::string& method,
                                                const Instances& instances) const = 0;
  // Local search `method` applied to finished solutions.
  [[nodiscard]] virtual torch::Tensor improve(const std::string& method, const Instances& instances,
                                              const torch::Tensor& actions) const = 0;
  // True where search() improves solutions (an iterated local search).
  [[nodiscard]] virtual bool searches() const { return false; }
  // Iterated local search from finished solutions: kicks, each followed by the local
  // search, keeping what is no worse, until `seconds` (for the whole batch) are spent;
  // draws from `seed`. The solutions unchanged where a problem has none.
  [[nodiscard]] virtual torch::Tensor search(const Instances& /*instances*/,
                                             const torch::Tensor& actions, double /*seconds*/,
                                             uint64_t /*seed*/) const {
    return actions;
  }
  // A fresh batched environment on `instances`: what the decode loop steps, for front
  // ends whose users step it with their own policy; std::invalid_argument where a
  // problem has none.
  [[nodiscard]] virtual std::unique_ptr<Environment> start(const Instances& /*instances*/) const {
    throw std::invalid_argument("problem '" + name() + "' has no environment to step");
  }
  // True when tile() cuts instances (tiled decoding is possible).
  [[nodiscard]] virtual bool has_tiles() const { return false; }
  // The instances cut into parts of at most `size` nodes (tiled decoding); throws
  // std::invalid_argument where a problem has no tiling.
  [[nodiscard]] virtual std::unique_ptr<Tiling> tile(const Instances& /*instances*/,
                                                     int64_t /*size*/) const {
    throw std::invalid_argument("tiled decoding (--window-at tiles) is not available for '" +
                                name() + "'");
  }
  // "METHOD[+IMPROVE]" (e.g. nn+2opt): construct, then improve when asked.
  [[nodiscard]] torch::Tensor heuristic(const std::string& spec, const Instances& instances) const {
    const auto plus = spec.find('+');
    const auto actions = construct(spec.substr(0, plus), instances);
    return plus == std::string::npos ? actions : improve(spec.substr(plus + 1), instances, actions);
  }
};

// K of n choices spread evenly, [K] int64 on `device` (where the instances are: a start
// action indexes them there) (floor(i n / K): distinct for K <= n); throws
// std::invalid_argument naming the bounds for any other K.
[[nodiscard]] inline torch::Tensor spread_choices(int64_t n, int64_t K,
                                                  const torch::Device& device) {
  if (K < 1 || K > n) {
    throw std::invalid_argument("multi-start: " + std::to_string(K) + " starts for instances of " +
                                std::to_string(n) + " (expected 1.." + std::to_string(n) + ")");
  }
  return torch::div(torch::arange(K, torch::TensorOptions(torch::kLong).device(device)) * n, K,
                    "floor");
}

// What a routing problem's environments give a policy to read (RoutingEnvironment):
// the widths and kinds of their node features and step context.
struct RoutingLayout {
  int64_t node_features;    // per node (the first two: its position)
  bool depot;               // node 0 is a depot
  int64_t context_nodes;    // nodes in the step context
  int64_t context_scalars;  // extra scalars in the step context
  bool placeholder;         // no node chosen at the first step (a learned placeholder)
};

class RoutingProblem : public Problem {
 public:
  [[nodiscard]] virtual std::unique_ptr<RoutingEnvironment> environment(
      const Instances& instances) const = 0;
  [[nodiscard]] virtual RoutingLayout layout() const = 0;
  [[nodiscard]] std::unique_ptr<Environment> start(const Instances& instances) const override {
    return environment(instances);
  }
};

}  // namespace eie
