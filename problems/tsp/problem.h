#pragma once

#include <torch/torch.h>

#include <string>

#include "problems/common/point_distribution.h"
#include "src/problem/problem.h"

namespace eie::tsp {

// Where generated coordinates live: Kool et al.'s unit square or the EIE paper's
// [-1,1]^2. Policies always read unit-square features ((x+1)/2 for the latter);
// costs stay in the instance's own units.
enum class Domain { unit, symmetric };
[[nodiscard]] Domain parse_domain(const std::string& text);
[[nodiscard]] std::string to_string(Domain domain);

// Instances: field "coords" [count, n, 2] float32.
class TspProblem final : public RoutingProblem {
 public:
  explicit TspProblem(Domain domain = Domain::unit,
                      PointDistribution distribution = PointDistribution::uniform)
      : domain_(domain), distribution_(distribution) {}
  // (x, y); context [first city, current city], a placeholder before the first.
  [[nodiscard]] RoutingLayout layout() const override { return {2, false, 2, 0, true}; }

  [[nodiscard]] std::string name() const override { return "tsp"; }
  [[nodiscard]] Domain domain() const { return domain_; }
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
  // nn (nearest neighbour) or farthest (farthest insertion).
  [[nodiscard]] torch::Tensor construct(const std::string& method,
                                        const Instances& instances) const override;
  // 2opt (neighbour-list 2-opt) or oropt (2-opt and Or-opt moves).
  [[nodiscard]] torch::Tensor improve(const std::string& method, const Instances& instances,
                                      const torch::Tensor& actions) const override;
  // Iterated Or-opt search (iterated_search) per instance.
  [[nodiscard]] bool searches() const override { return true; }
  [[nodiscard]] torch::Tensor search(const Instances& instances, const torch::Tensor& actions,
                                     double seconds, uint64_t seed) const override;
  [[nodiscard]] std::unique_ptr<RoutingEnvironment> environment(
      const Instances& instances) const override;
  [[nodiscard]] bool has_tiles() const override { return true; }
  // Spatial tiles (spatial_tiles), their tours joined by join_tile_tours.
  [[nodiscard]] std::unique_ptr<Tiling> tile(const Instances& instances,
                                             int64_t size) const override;

 private:
  Domain domain_;                   // coordinate range of generated and loaded instances
  PointDistribution distribution_;  // where generated cities lie in it
};

}  // namespace eie::tsp
