#pragma once

#include <torch/torch.h>

#include <functional>
#include <memory>

#include "src/attention/setting.h"
#include "src/decode/decode_loop.h"
#include "src/nn/encoder.h"
#include "src/problem/environment.h"

namespace eie::policy {

struct AttentionModelOptions {
  nn::EncoderOptions encoder;   // shared attention encoder
  int64_t node_features = 2;    // F: per-node input width (x, y[, demand])
  bool depot = false;           // a separately embedded depot row leads the nodes
  int64_t context_nodes = 2;    // k: node embeddings in the step context
  int64_t context_scalars = 0;  // s: extra step-context features
  bool placeholder = true;      // learned step input before the first choice (TSP)
  double tanh_clip = 10.0;      // C in C * tanh(logits)
};

// The attention model of Kool et al. 2019: encoder, then a pointer decoder with
// one multi-head glimpse per step. Problem-specific parts are only the input
// embedding and the step context, both read from a RoutingEnvironment.
class AttentionModelImpl : public torch::nn::Module {
 public:
  explicit AttentionModelImpl(const AttentionModelOptions& options);

  // Node embeddings [B, n', E] of the environment's nodes.
  torch::Tensor encode(const RoutingEnvironment& env, const std::vector<AttentionSetting>& encoder);
  // Encodes and returns the per-step policy bound to `env` (which must outlive it).
  std::unique_ptr<StepPolicy> start(const RoutingEnvironment& env, const AttentionPlan& plan);
  // The same from embeddings already computed (encode()); with `group` K, `env`
  // holds K rows per row of `embeddings`, an instance's rows together (multi-start,
  // sample:K).
  std::unique_ptr<StepPolicy> start(const RoutingEnvironment& env, const torch::Tensor& embeddings,
                                    const AttentionPlan& plan, int64_t group = 1);
  // Log-probabilities [B, T] of given solutions from `embeddings`, every step at
  // once (training): `env` is stepped through `actions` (no network) for the
  // steps' masks and contexts, then the decoder's products run batched over the
  // steps. Equal to the step-by-step values; no windows. `group` as in start().
  torch::Tensor score(RoutingEnvironment& env, const torch::Tensor& embeddings,
                      const AttentionPlan& plan, const torch::Tensor& actions, int64_t group = 1);
  // The same on local views of `window` candidates (WindowParts::view); plan_at(k)
  // gives the attention settings for a view of k nodes.
  std::unique_ptr<StepPolicy> start_local(const RoutingEnvironment& env,
                                          std::function<AttentionPlan(int64_t)> plan_at,
                                          int64_t window);

  [[nodiscard]] const AttentionModelOptions& options() const { return options_; }

  torch::nn::Linear init_embed{nullptr};        // node features -> E
  torch::nn::Linear init_embed_depot{nullptr};  // depot (x, y) -> E, when options.depot
  nn::Encoder encoder{nullptr};
  torch::nn::Linear project_node_embeddings{nullptr};  // E -> [glimpse K | glimpse V | pointer K]
  torch::nn::Linear project_fixed_context{nullptr};    // graph embedding -> E
  torch::nn::Linear project_step_context{nullptr};     // k*E + s -> E
  torch::nn::Linear project_out{nullptr};              // glimpse heads -> E
  torch::Tensor W_placeholder;                         // [k*E], when options.placeholder
  torch::Tensor glimpse_bias;                          // [M] trained betas of the glimpse
  torch::Tensor pointer_bias;                          // [1] trained beta of the pointer

 private:
  AttentionModelOptions options_;
};
TORCH_MODULE(AttentionModel);

}  // namespace eie::policy
