#pragma once

#include <torch/torch.h>

#include <string>

#include "problems/common/point_distribution.h"
#include "src/problem/problem.h"

namespace eie::cvrp {

// How random instances are drawn (DESIGN.md, "The three problems"):
// kool: integer demands U{1..9}, capacity 50 at every n unless told otherwise;
// eie: demands U(0,1) and capacity C_v (10 unless told otherwise).
enum class Protocol { kool, eie };
[[nodiscard]] Protocol parse_protocol(const std::string& text);
[[nodiscard]] std::string to_string(Protocol protocol);

// Capacity of generated instances: "" (the protocol's default), "kool" (Kool et
// al.'s table: 20, 30, 40, 50 for n = 10, 20, 50, 100, the nearest smaller entry
// otherwise) or a positive number.
struct Generation {
  Protocol protocol = Protocol::kool;  // demand law
  std::string capacity;                // as above
  PointDistribution distribution = PointDistribution::uniform;  // where customers lie
};

// Instances: depot [count, 2], coords [count, n, 2] (customers), demand [count, n]
// (raw, in the units of capacity), capacity [count]; float32, unit square.
class CvrpProblem final : public RoutingProblem {
 public:
  explicit CvrpProblem(Generation generation = {});
  // (x, y, demand / capacity); context [current node, 1 - used capacity].
  [[nodiscard]] RoutingLayout layout() const override { return {3, true, 1, 1, false}; }

  [[nodiscard]] std::string name() const override { return "cvrp"; }
  [[nodiscard]] const Generation& generation() const { return generation_; }
  // Capacity of generated instances of n customers.
  [[nodiscard]] double capacity_for(int64_t n) const;
  // Draw order (as Kool et al.): customer locations, demands, depot.
  [[nodiscard]] Instances generate(int64_t count, int64_t n,
                                   torch::Generator& generator) const override;
  void validate(const Instances& instances) const override;
  [[nodiscard]] int64_t size(const Instances& instances) const override;
  [[nodiscard]] torch::Tensor check(const Instances& instances,
                                    const torch::Tensor& actions) const override;
  [[nodiscard]] torch::Tensor start_actions(const Instances& instances, int64_t K) const override;
  [[nodiscard]] Instances permute(const Instances& instances,
                                  const torch::Tensor& perm) const override;
  [[nodiscard]] torch::Tensor unpermute(const torch::Tensor& actions,
                                        const torch::Tensor& perm) const override;
  [[nodiscard]] std::vector<Instances> symmetries(const Instances& instances) const override;
  [[nodiscard]] Instances rotated(const Instances& instances, double radians) const override;
  // savings (Clarke-Wright).
  [[nodiscard]] torch::Tensor construct(const std::string& method,
                                        const Instances& instances) const override;
  // local (2-opt, relocate, swap).
  [[nodiscard]] torch::Tensor improve(const std::string& method, const Instances& instances,
                                      const torch::Tensor& actions) const override;
  // Ruin-and-recreate iterated local search (iterated_search) per instance.
  [[nodiscard]] bool searches() const override { return true; }
  [[nodiscard]] torch::Tensor search(const Instances& instances, const torch::Tensor& actions,
                                     double seconds, uint64_t seed) const override;
  [[nodiscard]] std::unique_ptr<RoutingEnvironment> environment(
      const Instances& instances) const override;

 private:
  Generation generation_;  // how generate() draws instances
};

}  // namespace eie::cvrp
