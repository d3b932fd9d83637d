#pragma once

#include <torch/torch.h>

#include <string>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/environment.h"
#include "src/problem/problem.h"

namespace eie::bpp3d {

// Instances: boxes int32 [count, n, 3] (sides l, w, h), bin int32 [count, 2]
// (L, W), one base shared by all instances of a batch or dataset. The cost is
// minus the load rate, so lower is better like every other problem.
class Bpp3dProblem final : public Problem {
 public:
  // How generate() draws: a base and the range of box sides (box.h).
  explicit Bpp3dProblem(Protocol generation = eie_protocol());

  [[nodiscard]] std::string name() const override { return "bpp3d"; }
  [[nodiscard]] Objective objective() const override { return {"load_rate", true}; }
  // load_rate and height.
  [[nodiscard]] std::map<std::string, torch::Tensor> measures(
      const Instances& instances, const torch::Tensor& costs) const override;
  // Minus the load rate at the volume bound ceil(total volume / (L W)).
  [[nodiscard]] torch::Tensor cost_bound(const Instances& instances) const override;
  [[nodiscard]] const Protocol& generation() const { return generation_; }
  [[nodiscard]] Instances generate(int64_t count, int64_t n,
                                   torch::Generator& generator) const override;
  void validate(const Instances& instances) const override;
  [[nodiscard]] int64_t size(const Instances& instances) const override;
  // Replays the actions (box and orientation, then position) and checks the
  // placements without the height map (check_packing); costs = minus load rates.
  [[nodiscard]] torch::Tensor check(const Instances& instances,
                                    const torch::Tensor& actions) const override;
  // Only the identity: positions are not invariant under reflections of the base.
  [[nodiscard]] torch::Tensor start_actions(const Instances& instances, int64_t K) const override;
  [[nodiscard]] Instances permute(const Instances& instances,
                                  const torch::Tensor& perm) const override;
  [[nodiscard]] torch::Tensor unpermute(const torch::Tensor& actions,
                                        const torch::Tensor& perm) const override;
  [[nodiscard]] std::vector<Instances> symmetries(const Instances& instances) const override;
  // heightmap (the height-map greedy heuristic).
  [[nodiscard]] torch::Tensor construct(const std::string& method,
                                        const Instances& instances) const override;
  // None exists: always throws std::invalid_argument.
  [[nodiscard]] torch::Tensor improve(const std::string& method, const Instances& instances,
                                      const torch::Tensor& actions) const override;
  [[nodiscard]] std::unique_ptr<Bpp3dEnvironment> environment(const Instances& instances) const;
  [[nodiscard]] std::unique_ptr<Environment> start(const Instances& instances) const override {
    return environment(instances);
  }

 private:
  Protocol generation_;  // base and side range of generated instances
};

// "eie" (sides U{10..50}) or "attend2pack" (U{20..80}, base 100 x 100) on a base
// "LxW" ("" = the protocol's default: 120x100 for eie).
[[nodiscard]] Protocol parse_generation(const std::string& protocol, const std::string& base);

// Instances as plain data, and back (one instance).
[[nodiscard]] std::vector<BppData> data_of(const Instances& instances);
[[nodiscard]] Instances instances_of(const BppData& data);

}  // namespace eie::bpp3d
