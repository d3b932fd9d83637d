#pragma once

#include <memory>

#include "policies/attention_model/attention_model.h"
#include "src/agent/agent.h"
#include "src/agent/graphed_rollouts.h"

namespace eie::policy {

// The attention model paired with a routing problem (TSP, CVRP).
class AttentionAgent final : public Agent {
 public:
  // train_n: the instance size the network is (or will be) trained on.
  AttentionAgent(std::shared_ptr<const RoutingProblem> problem,
                 const AttentionModelOptions& options, int64_t train_n);

  [[nodiscard]] const Problem& problem() const override { return *problem_; }
  [[nodiscard]] torch::nn::Module& network() override { return *model_; }
  [[nodiscard]] std::unique_ptr<Agent> clone() const override;
  [[nodiscard]] Attributes spec() const override;
  void set_attention(const AttentionConfig& config) override {
    attention_ = config;
    graphs_.clear();  // they captured the settings they ran with
  }
  [[nodiscard]] int64_t tile_size() const override {
    return attention_.window_parts.tiles ? attention_.window : 0;
  }

  [[nodiscard]] AttentionModel& model() { return model_; }
  // Encoder output [B, n', E] for `instances` under the current attention config.
  [[nodiscard]] torch::Tensor embed(const Instances& instances) override;
  // The attention settings used for instances of size n.
  [[nodiscard]] AttentionPlan plan(int64_t n) const;


 protected:
  [[nodiscard]] Trajectory run(const Instances& instances, Selection selection,
                               std::optional<torch::Generator> generator,
                               const torch::Tensor& replayed, const Copies& copies,
                               Mode mode) override;

 private:
  std::shared_ptr<const RoutingProblem> problem_;  // environments and checks
  AttentionModel model_;                           // the network
  int64_t train_n_;                                // N of the scale policies
  AttentionConfig attention_;                      // inference-time scaling
  GraphedRollouts graphs_;                         // greedy rollouts on a GPU, per batch shape
};

}  // namespace eie::policy
