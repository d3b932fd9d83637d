#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "decode/environment.h"
#include "decode/instances.h"

namespace eie {

// A combinatorial problem: instances, their generator, environments and an
// independent check of finished solutions. Nothing of networks.
class Problem {
 public:
  virtual ~Problem() = default;
  [[nodiscard]] virtual std::string name() const = 0;
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
  // The instance under cost-preserving transformations, the identity first (for aug8).
  [[nodiscard]] virtual std::vector<Instances> symmetries(const Instances& instances) const = 0;
  // Classical construction heuristic `method`: actions [B, T] in the decode loop's form.
  [[nodiscard]] virtual torch::Tensor construct(const std::string& method,
                                                const Instances& instances) const = 0;
  // Local search `method` applied to finished solutions.
  [[nodiscard]] virtual torch::Tensor improve(const std::string& method, const Instances& instances,
                                              const torch::Tensor& actions) const = 0;
};

class RoutingProblem : public Problem {
 public:
  [[nodiscard]] virtual std::unique_ptr<RoutingEnvironment> environment(
      const Instances& instances) const = 0;
};

}  // namespace eie
