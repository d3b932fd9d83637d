#pragma once

#include <torch/torch.h>

#include "src/problem/environment.h"

namespace eie::cvrp {

// Batched CVRP routes under construction, with Kool et al.'s rules: node 0 is
// the depot, 1..n the customers; a customer is feasible if unvisited and its
// normalised demand fits (`q + used <= 1` in float32, accumulated in visit
// order); the depot is infeasible right after the depot while some customer is
// feasible. Finished instances keep choosing the depot (zero length).
class CvrpEnvironment final : public RoutingEnvironment {
 public:
  // locations: [B, n+1, 2] depot first, in cost units; features: [B, n+1, 3]
  // what the policy reads (x, y, q; q = 0 for the depot); q: [B, n] demand / capacity.
  CvrpEnvironment(torch::Tensor locations, torch::Tensor features, torch::Tensor q);

  [[nodiscard]] torch::Tensor feasible() const override;
  void step(const torch::Tensor& action) override;
  // Reads the device's flag only from the fewest steps any solution takes (every
  // customer, and a return per route the total demand needs): a few reads per decode,
  // not one per step.
  [[nodiscard]] bool done() const override {
    return steps_ >= fewest_steps_ && all_finished_.item<bool>();
  }
  // Every customer served and back at the depot.
  [[nodiscard]] torch::Tensor finished() const override {
    return visited_.slice(1, 1).all(1) & (current_ == 0);
  }
  // A customer, then at most one depot visit before the next (never the depot twice
  // in a row while a customer is feasible).
  [[nodiscard]] int64_t max_steps() const override { return 2 * n_; }
  [[nodiscard]] torch::Tensor cost() const override { return length_; }

  [[nodiscard]] int64_t size() const override { return n_; }
  [[nodiscard]] torch::Tensor node_features() const override { return features_; }
  [[nodiscard]] int64_t depot_count() const override { return 1; }
  // [current node] and [1 - used capacity].
  [[nodiscard]] RoutingContext context() const override;

 private:
  torch::Tensor locations_;  // [B, n+1, 2] float32, depot first
  torch::Tensor features_;   // [B, n+1, 3] float32
  torch::Tensor q_;          // [B, n+1] float32 normalised demands, 0 for the depot
  torch::Tensor visited_;    // [B, n+1] bool (column 0 unused: the depot is never "visited")
  torch::Tensor current_;    // [B] int64, node the vehicle is at (0 at the start)
  torch::Tensor
      used_;  // [B] (float32 unless the instances are float64) load of the current route / capacity
  torch::Tensor length_;  // [B] distance driven so far
  int64_t n_;             // customers per instance
  torch::Tensor all_finished_;  // bool scalar: every instance served and back at the depot
  int64_t steps_ = 0;           // steps taken
  int64_t fewest_steps_;        // n + the routes the largest total demand needs
};

}  // namespace eie::cvrp
