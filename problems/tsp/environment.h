#pragma once

#include <torch/torch.h>

#include "src/problem/environment.h"

namespace eie::tsp {

// Batched TSP tours under construction: one city per step, n steps.
class TspEnvironment final : public RoutingEnvironment {
 public:
  // coords: [B, n, 2] in cost units; features: what the policy reads (same shape).
  TspEnvironment(torch::Tensor coords, torch::Tensor features);

  [[nodiscard]] torch::Tensor feasible() const override;
  void step(const torch::Tensor& action) override;
  [[nodiscard]] bool done() const override { return steps_ == n_; }
  [[nodiscard]] int64_t max_steps() const override { return n_; }
  [[nodiscard]] bool steps_fixed() const override { return true; }
  [[nodiscard]] torch::Tensor cost() const override;

  [[nodiscard]] int64_t size() const override { return n_; }
  [[nodiscard]] torch::Tensor node_features() const override { return features_; }
  [[nodiscard]] int64_t depot_count() const override { return 0; }
  // [first, last] city; a placeholder before the first step.
  [[nodiscard]] RoutingContext context() const override;
  [[nodiscard]] std::unique_ptr<RoutingEnvironment> view(const torch::Tensor& nodes,
                                                         torch::Tensor features) const override;

 private:
  torch::Tensor coords_;    // [B, n, 2] float32
  torch::Tensor features_;  // [B, n, 2] float32
  torch::Tensor visited_;   // [B, n] bool
  torch::Tensor first_;     // [B] int64, first city
  torch::Tensor last_;      // [B] int64, current city
  torch::Tensor length_;    // [B] float32, open path length so far
  int64_t n_;               // cities per instance
  int64_t steps_ = 0;       // cities chosen so far
};

}  // namespace eie::tsp
