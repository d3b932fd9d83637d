#include "policies/attention_model/attention_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "src/nn/entropy_probe.h"
#include "src/nn/glimpse.h"
#include "src/nn/neighbours.h"
#include "src/nn/pick_rows.h"

namespace eie::policy {

namespace {

torch::nn::Linear linear(int64_t in, int64_t out, bool bias) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

// Per-step policy of one encoded batch. Everything that does not depend on the
// step is computed once: the glimpse and pointer keys and values, and each
// node's contribution to the step context (project_step_context is linear, so
// projecting all nodes once turns the per-step matmul into a gather).
// With `group` K > 1 (multi-start, sample:K), `env` holds K rows per encoded instance, the
// K rows of an instance together: their K queries attend to the instance's keys at
// once, so nothing of the encoded batch is repeated K times.
class AttentionDecoder final : public StepPolicy {
 public:
  AttentionDecoder(AttentionModelImpl& model, const RoutingEnvironment& env,
                   const torch::Tensor& embeddings, const AttentionPlan& plan, int64_t group = 1)
      : model_(model),
        env_(env),
        glimpse_(plan.glimpse),
        pointer_window_(plan.pointer_window),
        pointer_probe_(plan.pointer_probe),
        group_(group) {
    window_ = std::max(glimpse_.window, pointer_window_);
    if (group > 1 && (window_ > 0 || glimpse_.probe || pointer_probe_)) {
      throw std::logic_error("multi-start decoder: windows and probes need one row per instance");
    }
    const int64_t M = model.options().encoder.heads;
    glimpse_beta_ = nn::head_betas(glimpse_.bias, model.glimpse_bias, M, embeddings.options());
    pointer_beta_ = nn::head_betas(plan.pointer_bias, model.pointer_bias, 1, embeddings.options());
    if (window_ > 0 || biased()) positions_ = env.node_features().slice(2, 0, 2);
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
    // The pointer scores (W g).k of the glimpse g through project_out (W, no bias): the
    // same as g.(W^T k), so the keys take W once here, not every step's queries (per step
    // a product of every row of the batch, its backward two more, in training).
    logit_keys_ = torch::matmul(projected[2], model.project_out->weight)
                      .transpose(1, 2)
                      .contiguous();  // [B, E, n]
  }

  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    const auto ctx = env_.context();
    if (group_ > 1) return grouped_log_probs(feasible, ctx);
    const auto query =
        ctx.placeholder
            ? fixed_context_ + placeholder_context_
            : fixed_context_ +
                  step_context(ctx.nodes.unsqueeze(1), ctx.scalars.unsqueeze(1)).squeeze(1);
    const auto infeasible = feasible.logical_not();
    const auto outside = window_ > 0 ? window(feasible, ctx).logical_not() : infeasible;
    // Distances from the current node (none before the first choice).
    const auto distance = biased() && !ctx.placeholder
                              ? nn::distances_from(positions_, current_node(ctx.nodes))
                              : torch::Tensor();
    // Glimpse: every head attends over the feasible nodes (in the window, if any).
    const auto glimpsed =
        nn::glimpse(glimpse_memory_, query, glimpse_.window > 0 ? outside : infeasible,
                    glimpse_.scale, glimpse_.probe, glimpse_bias(distance));
    auto chosen = pointer_log_probs(glimpsed, pointer_window_ > 0 ? outside : infeasible, distance);
    if (pointer_probe_) pointer_probe_->add(chosen.exp().unsqueeze(0));
    return chosen;
  }

  // Log-probabilities [B, T] of `actions` at every step at once, from the steps'
  // feasible masks [B, T, n'], context nodes [B, T, k] and scalars [B, T, s]
  // (`placeholder`: steps before the first choice): the products of log_probs()
  // batched over the steps, for training. No windows.
  // With a group of K, rows are [B K, T, ...] and the K rows of an instance are
  // scored together as K T queries.
  torch::Tensor score(const torch::Tensor& feasible, const torch::Tensor& nodes,
                      const torch::Tensor& scalars, const std::vector<bool>& placeholder,
                      const torch::Tensor& actions) const {
    const int64_t T = feasible.size(1), E = model_.options().encoder.embed_dim;
    const int64_t B = fixed_context_.size(0), KT = group_ * T;
    auto step_part = step_context(nodes.reshape({B, KT, nodes.size(2)}),
                                  scalars.reshape({B, KT, scalars.size(2)}));
    if (std::find(placeholder.begin(), placeholder.end(), true) != placeholder.end()) {
      std::vector<uint8_t> flags(placeholder.begin(), placeholder.end());
      const auto before_first = torch::from_blob(flags.data(), {1, 1, T, 1}, torch::kUInt8)
                                    .to(step_part.device(), torch::kBool)
                                    .expand({1, group_, T, 1})
                                    .reshape({1, KT, 1});
      step_part = torch::where(before_first, placeholder_context_.view({1, 1, E}), step_part);
    }
    const auto query = fixed_context_.unsqueeze(1) + step_part;  // [B, K T, E]
    const int64_t n = feasible.size(2);
    const auto infeasible = feasible.logical_not().reshape({B, KT, n});
    torch::Tensor distance;  // [B, K T, n]: from each step's current node, 0 before the first
    if (biased()) {
      const auto current = current_node(nodes);  // [B K, T]
      const auto here = positions_.gather(1, current.unsqueeze(2).expand({-1, T, 2}));
      distance = nn::distances(here, positions_);
      for (int64_t t = 0; t < T; ++t) {
        if (placeholder[static_cast<size_t>(t)]) distance.select(1, t).zero_();
      }
      distance = distance.reshape({B, KT, n});
    }
    const auto glimpsed = nn::glimpse_steps(glimpse_memory_, query, infeasible, glimpse_.scale,
                                            glimpse_bias(distance));
    return pointer_log_probs(glimpsed, infeasible, distance)
        .gather(2, actions.reshape({B, KT}).unsqueeze(2))
        .view({B * group_, T});
  }

 private:
  // log_probs() for K rows per instance: the K queries of an instance at once.
  torch::Tensor grouped_log_probs(const torch::Tensor& feasible, const RoutingContext& ctx) const {
    const int64_t B = fixed_context_.size(0), K = group_, E = fixed_context_.size(1);
    const auto query =
        ctx.placeholder
            ? (fixed_context_ + placeholder_context_).unsqueeze(1).expand({B, K, E})
            : fixed_context_.unsqueeze(1) +
                  step_context(ctx.nodes.view({B, K, ctx.nodes.size(1)}),
                               ctx.scalars.view({B, K, ctx.scalars.size(1)}));  // [B, K, E]
    const int64_t n = feasible.size(1);
    const auto infeasible = feasible.logical_not().view({B, K, n});
    const auto distance =
        biased() && !ctx.placeholder
            ? nn::distances_from(positions_, current_node(ctx.nodes)).view({B, K, n})
            : torch::Tensor();
    const auto glimpsed = nn::glimpse_steps(glimpse_memory_, query, infeasible, glimpse_.scale,
                                            glimpse_bias(distance));
    return pointer_log_probs(glimpsed, infeasible, distance).view({B * K, n});
  }

  // Whether a distance bias applies to the glimpse or the pointer.
  [[nodiscard]] bool biased() const { return glimpse_beta_.defined() || pointer_beta_.defined(); }

  // The current node of context nodes [..., k]: the last slot.
  static torch::Tensor current_node(const torch::Tensor& nodes) {
    return nodes.select(-1, nodes.size(-1) - 1);
  }

  // The glimpse's bias for distances [B, ..., n] (undefined: before the first choice).
  [[nodiscard]] nn::ScoreBias glimpse_bias(const torch::Tensor& distance) const {
    if (!glimpse_beta_.defined() || !distance.defined()) return {};
    return {glimpse_beta_, distance};
  }

  // The step-context part of the query from context nodes [B, T, k] and scalars
  // [B, T, s]: [B, T, E] (a gather per slot: the nodes were projected once).
  torch::Tensor step_context(const torch::Tensor& nodes, const torch::Tensor& scalars) const {
    torch::Tensor part;
    for (size_t slot = 0; slot < slot_context_.size(); ++slot) {
      const auto gathered =
          nn::pick_rows(slot_context_[slot], nodes.select(2, static_cast<int64_t>(slot)));
      part = part.defined() ? part + gathered : gathered;
    }
    if (scalars.size(2) > 0) part = part + torch::matmul(scalars, scalar_weight_.t());
    return part;
  }

  // Pointer log-probabilities of glimpses [B, E] or [B, T, E] over the logit keys
  // (nn::pointer_log_probs).
  torch::Tensor pointer_log_probs(const torch::Tensor& glimpsed, const torch::Tensor& masked,
                                  const torch::Tensor& distance) const {
    return nn::pointer_log_probs(logit_keys_, glimpsed, model_.options().tanh_clip, pointer_beta_,
                                 distance, masked);
  }

  // `feasible` restricted to the window's nearest feasible nodes of the current
  // node, depots kept (a route can always end); all of it before the first choice.
  torch::Tensor window(const torch::Tensor& feasible, const RoutingContext& ctx) const {
    const int64_t K = window_;
    if (ctx.placeholder || K >= feasible.size(1)) return feasible;
    torch::NoGradGuard no_grad;
    const int64_t B = feasible.size(0);
    const auto current = ctx.nodes.select(1, ctx.nodes.size(1) - 1).view({B, 1, 1});
    const auto here = positions_.gather(1, current.expand({B, 1, 2}));
    const auto distance =
        (positions_ - here)
            .pow(2)
            .sum(-1)
            .masked_fill(feasible.logical_not(), std::numeric_limits<float>::infinity());
    const auto nearest = std::get<1>(distance.topk(K, 1, false, false));
    auto allowed = torch::zeros_like(feasible).scatter(1, nearest, true);
    allowed.slice(1, 0, env_.depot_count()).fill_(true);
    return allowed.logical_and(feasible);
  }

  AttentionModelImpl& model_;                // the network (outlives the decoder)
  const RoutingEnvironment& env_;            // where the step context comes from
  AttentionSetting glimpse_;                 // the glimpse's scale and window
  int64_t pointer_window_;                   // the pointer's window (0: every feasible node)
  nn::EntropyProbe* pointer_probe_;          // records the pointer's entropies, when set
  int64_t group_;                            // rows of the environment per encoded instance
  int64_t window_ = 0;                       // the larger of the two windows
  torch::Tensor glimpse_beta_;               // [M] the glimpse's betas; undefined: no bias
  torch::Tensor pointer_beta_;               // [1] the pointer's beta; undefined: no bias
  torch::Tensor positions_;                  // [B, n', 2] node positions, when windowed or biased
  int64_t heads_ = 0;                        // M
  torch::Tensor fixed_context_;              // [B, E] projected graph embedding
  torch::Tensor placeholder_context_;        // [E] projected placeholder (TSP, first step)
  std::vector<torch::Tensor> slot_context_;  // per context slot: [B, n', E] projected nodes
  torch::Tensor scalar_weight_;              // [E, s] projection of the context scalars
  nn::GlimpseMemory glimpse_memory_;         // glimpse keys and values
  torch::Tensor logit_keys_;                 // [B, E, n'] pointer keys, through project_out
};

// Decodes every step on a local view (WindowParts::view): the context nodes and
// the current node's K nearest nodes, positions rescaled so that the
// current node and the candidates fill the unit square, encoded as an instance of
// their own. The model then always sees about as many nodes as in training, at
// the spacing of training instances. The first choice (no current node yet) is
// made on the whole instance.
class LocalViewDecoder final : public StepPolicy {
 public:
  LocalViewDecoder(AttentionModelImpl& model, const RoutingEnvironment& env,
                   std::function<AttentionPlan(int64_t)> plan_at, int64_t window)
      : model_(model), env_(env), plan_at_(std::move(plan_at)), window_(window) {}

  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    const auto ctx = env_.context();
    if (ctx.placeholder) return whole_instance().log_probs(feasible);
    const int64_t B = feasible.size(0), n = feasible.size(1), c = ctx.nodes.size(1);
    const auto features = env_.node_features();
    const auto positions = features.slice(2, 0, 2);
    // Candidates: the current node's K nearest other nodes, visited ones included
    // (masked in the view, as in a real tour); when none of them is feasible, the
    // last one makes way for the nearest feasible node. (With feasible nodes only
    // the view looks like a fresh tour, and the model decodes clearly worse.)
    torch::Tensor candidates;
    {
      torch::NoGradGuard no_grad;
      const int64_t K = std::min(window_, n - c);
      const auto current = ctx.nodes.select(1, c - 1).view({B, 1, 1});
      const auto distance =
          (positions - positions.gather(1, current.expand({B, 1, 2}))).pow(2).sum(-1);
      const float inf = std::numeric_limits<float>::infinity();
      candidates = std::get<1>(distance.scatter(1, ctx.nodes, inf).topk(K, 1, false, false));
      const auto nearest_feasible =
          std::get<1>(distance.masked_fill(feasible.logical_not(), inf).min(1));
      auto last = candidates.select(1, K - 1);
      last.copy_(torch::where(feasible.gather(1, candidates).any(1), last, nearest_feasible));
    }
    const int64_t k = c + candidates.size(1);
    const auto nodes = torch::cat({ctx.nodes, candidates}, 1);  // [B, k]
    const auto local = features.gather(1, nodes.unsqueeze(2).expand({B, k, features.size(2)}));
    const auto view = env_.view(nodes, rescaled(local, c - 1));
    const auto plan = plan_at_(k);
    AttentionDecoder decoder(model_, *view, model_.encode(*view, plan.encoder), plan);
    const auto chosen = decoder.log_probs(view->feasible()).slice(1, c);  // [B, k - c]
    return torch::full(feasible.sizes(), -std::numeric_limits<float>::infinity(), chosen.options())
        .scatter(1, candidates, chosen);
  }

 private:
  // Positions of `local` [B, k, F] mapped so that rows from `first_fitted` on fill
  // [0, 1]^2 (aspect kept); earlier rows are clamped into it.
  static torch::Tensor rescaled(const torch::Tensor& local, int64_t first_fitted) {
    const auto positions = local.slice(2, 0, 2);
    const auto fitted = positions.slice(1, first_fitted);
    const auto low = std::get<0>(fitted.min(1, true));  // [B, 1, 2]
    const auto extent = std::get<0>((std::get<0>(fitted.max(1, true)) - low).max(2, true));
    const auto scaled = ((positions - low) / extent.clamp_min(1e-9)).clamp(0, 1);
    return torch::cat({scaled, local.slice(2, 2)}, 2);
  }

  AttentionDecoder& whole_instance() {
    if (!whole_) {
      const auto plan = plan_at_(env_.node_features().size(1));
      whole_ =
          std::make_unique<AttentionDecoder>(model_, env_, model_.encode(env_, plan.encoder), plan);
    }
    return *whole_;
  }

  AttentionModelImpl& model_;                      // the network (outlives the decoder)
  const RoutingEnvironment& env_;                  // the whole instance
  std::function<AttentionPlan(int64_t)> plan_at_;  // attention settings for k nodes
  int64_t window_;                                 // K, candidates per view
  std::unique_ptr<AttentionDecoder> whole_;        // the first step's decoder
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
  const auto& bias = options.encoder.trained_bias;
  if (bias.enabled) {
    glimpse_bias = register_parameter(
        nn::kGlimpseBetas, torch::full({options.encoder.heads}, bias.glimpse_init), bias.learn);
    pointer_bias =
        register_parameter(nn::kPointerBetas, torch::full({1}, bias.pointer_init), bias.learn);
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
  const int64_t window = settings.empty() ? 0 : settings.front().window;
  const auto positions = features.slice(2, 0, 2);
  const auto neighbours = window > 0 && window < features.size(1)
                              ? nn::nearest_nodes(positions, window)
                              : torch::Tensor();
  return encoder(h, settings, nn::NodeGeometry{positions, neighbours});
}

torch::Tensor AttentionModelImpl::score(RoutingEnvironment& env, const torch::Tensor& embeddings,
                                        const AttentionPlan& plan, const torch::Tensor& actions,
                                        int64_t group) {
  std::vector<torch::Tensor> feasible, nodes, scalars;
  std::vector<bool> placeholder;
  {
    torch::NoGradGuard no_grad;
    for (int64_t t = 0; t < actions.size(1); ++t) {
      if (env.done())
        throw std::invalid_argument("score: the solutions are longer than the problem");
      const auto ctx = env.context();
      feasible.push_back(env.feasible());
      nodes.push_back(ctx.nodes);
      scalars.push_back(ctx.scalars);
      placeholder.push_back(ctx.placeholder);
      env.step(actions.select(1, t));
    }
    if (!env.done())
      throw std::invalid_argument("score: the solutions end before the problem does");
  }
  auto unwindowed = plan;  // scored solutions were decoded without windows
  unwindowed.pointer_window = 0;
  unwindowed.glimpse.window = 0;
  const AttentionDecoder decoder(*this, env, embeddings, unwindowed, group);
  return decoder.score(torch::stack(feasible, 1), torch::stack(nodes, 1), torch::stack(scalars, 1),
                       placeholder, actions);
}

std::unique_ptr<StepPolicy> AttentionModelImpl::start_local(
    const RoutingEnvironment& env, std::function<AttentionPlan(int64_t)> plan_at, int64_t window) {
  return std::make_unique<LocalViewDecoder>(*this, env, std::move(plan_at), window);
}

std::unique_ptr<StepPolicy> AttentionModelImpl::start(const RoutingEnvironment& env,
                                                      const AttentionPlan& plan) {
  return start(env, encode(env, plan.encoder), plan);
}

std::unique_ptr<StepPolicy> AttentionModelImpl::start(const RoutingEnvironment& env,
                                                      const torch::Tensor& embeddings,
                                                      const AttentionPlan& plan, int64_t group) {
  return std::make_unique<AttentionDecoder>(*this, env, embeddings, plan, group);
}

}  // namespace eie::policy
