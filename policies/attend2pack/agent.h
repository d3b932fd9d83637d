#pragma once

#include <memory>

#include "policies/attend2pack/attend2pack.h"
#include "problems/bpp3d/problem.h"
#include "src/agent/agent.h"

namespace eie::policy {

// The attend2pack network paired with the 3D packing problem.
class Attend2PackAgent final : public Agent {
 public:
  // train_n: the number of boxes the network is (or will be) trained on.
  Attend2PackAgent(std::shared_ptr<const bpp3d::Bpp3dProblem> problem,
                   const Attend2PackOptions& options, int64_t train_n);

  [[nodiscard]] const Problem& problem() const override { return *problem_; }
  [[nodiscard]] torch::nn::Module& network() override { return *model_; }
  [[nodiscard]] Attend2Pack& model() { return model_; }
  // The attention settings at n boxes under the current config.
  [[nodiscard]] AttentionPlan plan(int64_t n) const;
  [[nodiscard]] std::unique_ptr<Agent> clone() const override;
  [[nodiscard]] Attributes spec() const override;
  void set_attention(const AttentionConfig& config) override { attention_ = config; }

  // Box embeddings [B, n, E] under the current attention config.
  [[nodiscard]] torch::Tensor embed(const Instances& instances) override;


 protected:
  [[nodiscard]] Trajectory run(const Instances& instances, Selection selection,
                               std::optional<torch::Generator> generator,
                               const torch::Tensor& replayed, const Copies& copies,
                               Mode mode) override;

 private:
  std::shared_ptr<const bpp3d::Bpp3dProblem> problem_;  // environments and checks
  Attend2Pack model_;                                   // the network
  int64_t train_n_;                                     // N of the scale policies
  AttentionConfig attention_;                           // inference-time scaling
};

}  // namespace eie::policy
