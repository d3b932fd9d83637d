#include "attention_model/attention_model.h"

#include <cmath>
#include <limits>

#include "nn/glimpse.h"

namespace eie::policy {

namespace {

torch::nn::Linear linear(int64_t in, int64_t out, bool bias) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

// Per-step policy of one encoded batch. Everything that does not depend on the
// step is computed once: the glimpse and pointer keys and values, and each
// node's contribution to the step context (project_step_context is linear, so
// projecting all nodes once turns the per-step matmul into a gather).
class AttentionDecoder final : public StepPolicy {
 public:
  AttentionDecoder(AttentionModelImpl& model, const RoutingEnvironment& env,
                   const torch::Tensor& embeddings, AttentionSetting glimpse)
      : model_(model), env_(env), glimpse_(glimpse) {
    const auto& o = model.options();
    const int64_t E = o.encoder.embed_dim;
    heads_ = o.encoder.heads;
    const auto& W = model.project_step_context->weight;  // [E, k*E + s]
    fixed_context_ = model.project_fixed_context(embeddings.mean(1));
    if (o.placeholder) placeholder_context_ = torch::mv(W, model.W_placeholder);  // [E]
    for (int64_t slot = 0; slot < o.context_nodes; ++slot) {
      slot_context_.push_back(torch::matmul(embeddings, W.slice(1, slot * E, (slot + 1) * E).t()));
    }
    scalar_weight_ = W.slice(1, o.context_nodes * E);  // [E, s]
    const auto projected = model.project_node_embeddings(embeddings).chunk(3, -1);
    glimpse_memory_ = nn::glimpse_memory(projected[0], projected[1], heads_);
    logit_keys_ = projected[2].transpose(1, 2).contiguous();  // [B, E, n]
  }

  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    const auto& o = model_.options();
    const int64_t B = fixed_context_.size(0), E = o.encoder.embed_dim;
    const auto ctx = env_.context();
    auto query = fixed_context_;  // [B, E]
    if (ctx.placeholder) {
      query = query + placeholder_context_;
    } else {
      for (size_t slot = 0; slot < slot_context_.size(); ++slot) {
        const auto index = ctx.nodes.select(1, static_cast<int64_t>(slot)).view({B, 1, 1});
        query = query + slot_context_[slot].gather(1, index.expand({B, 1, E})).squeeze(1);
      }
      if (ctx.scalars.size(1) > 0) query = query + torch::matmul(ctx.scalars, scalar_weight_.t());
    }
    const auto infeasible = feasible.logical_not();
    const float minus_inf = -std::numeric_limits<float>::infinity();

    // Glimpse: every head attends over the feasible nodes.
    const auto refined =
        model_.project_out(nn::glimpse(glimpse_memory_, query, infeasible, glimpse_.scale));

    // Pointer: single head scaled by 1/sqrt(E) (never rescaled), tanh clipping.
    auto logits = nn::pointer_scores(logit_keys_, refined) / std::sqrt(static_cast<double>(E));
    logits = torch::tanh(logits) * o.tanh_clip;
    return torch::log_softmax(logits.masked_fill(infeasible, minus_inf), -1);
  }

 private:
  AttentionModelImpl& model_;                // the network (outlives the decoder)
  const RoutingEnvironment& env_;            // where the step context comes from
  AttentionSetting glimpse_;                 // the glimpse's scale
  int64_t heads_ = 0;                        // M
  torch::Tensor fixed_context_;              // [B, E] projected graph embedding
  torch::Tensor placeholder_context_;        // [E] projected placeholder (TSP, first step)
  std::vector<torch::Tensor> slot_context_;  // per context slot: [B, n', E] projected nodes
  torch::Tensor scalar_weight_;              // [E, s] projection of the context scalars
  nn::GlimpseMemory glimpse_memory_;         // glimpse keys and values
  torch::Tensor logit_keys_;                 // [B, E, n']
};

}  // namespace

AttentionModelImpl::AttentionModelImpl(const AttentionModelOptions& options) : options_(options) {
  const int64_t E = options.encoder.embed_dim;
  init_embed = register_module("init_embed", torch::nn::Linear(options.node_features, E));
  if (options.depot)
    init_embed_depot = register_module("init_embed_depot", torch::nn::Linear(2, E));
  encoder = register_module("encoder", nn::Encoder(options.encoder));
  project_node_embeddings = register_module("project_node_embeddings", linear(E, 3 * E, false));
  project_fixed_context = register_module("project_fixed_context", linear(E, E, false));
  const int64_t step_width = options.context_nodes * E + options.context_scalars;
  project_step_context = register_module("project_step_context", linear(step_width, E, false));
  project_out = register_module("project_out", linear(E, E, false));
  if (options.placeholder) {
    W_placeholder = register_parameter("W_placeholder",
                                       torch::empty({options.context_nodes * E}).uniform_(-1, 1));
  }
}

torch::Tensor AttentionModelImpl::encode(const RoutingEnvironment& env,
                                         const std::vector<AttentionSetting>& settings) {
  const auto features = env.node_features();
  const int64_t depots = env.depot_count();
  auto h = init_embed(features.slice(1, depots));
  if (depots > 0) {
    h = torch::cat({init_embed_depot(features.slice(1, 0, depots).slice(2, 0, 2)), h}, 1);
  }
  return encoder(h, settings);
}

std::unique_ptr<StepPolicy> AttentionModelImpl::start(const RoutingEnvironment& env,
                                                      const AttentionPlan& plan) {
  return std::make_unique<AttentionDecoder>(*this, env, encode(env, plan.encoder), plan.glimpse);
}

}  // namespace eie::policy
