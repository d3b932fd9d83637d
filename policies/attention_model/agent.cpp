#include "policies/attention_model/agent.h"

#include <string>

#include "policies/encoder_agent.h"
#include "src/nn/module_state.h"

namespace eie::policy {

namespace {
// A training decode's input, beside the instances' fields.
const std::string kEmbeddingsField = "embeddings";
}  // namespace

AttentionAgent::AttentionAgent(std::shared_ptr<const RoutingProblem> problem,
                               const AttentionModelOptions& options, int64_t train_n)
    : problem_(std::move(problem)), model_(options), train_n_(train_n) {}

AttentionPlan AttentionAgent::plan(int64_t n) const {
  return encoder_plan(attention_, model_->options().encoder, train_n_, n);
}

torch::Tensor AttentionAgent::embed(const Instances& instances) {
  const auto env = problem_->environment(instances);
  return model_->encode(*env, plan(env->size()).encoder);
}

Trajectory AttentionAgent::run(const Instances& instances, Selection selection,
                               std::optional<torch::Generator> generator,
                               const torch::Tensor& replayed, const Copies& copies, Mode mode) {
  std::optional<torch::NoGradGuard> no_grad;
  if (mode == Mode::inference) no_grad.emplace();
  const int64_t window = attention_.window;
  const auto started = with_copies(instances, copies);
  const auto& forced = started.forced.defined() ? started.forced : replayed;
  const int64_t K = started.starts;
  // Training one row per instance: encode once with gradients, decode without them, score
  // with them (a step's ops are small, and autograd's bookkeeping per op would dominate).
  // On the CPU, multi-start rows (K per instance) decode with gradients instead, below:
  // their ops are large, and scoring all K T steps again cost more than it saved (both
  // measured in results/speed.md, "Multi-start training step"). On a GPU they decode
  // without gradients too: there a step's launches cost more than its work, and the
  // decode runs eie's kernels (results/gpu.md).
  if (window == 0 && mode == Mode::training &&
      (K == 1 || (device().is_cuda() && !attention_.probes))) {
    const auto settings = plan(problem_->size(instances));
    const auto embeddings = model_->encode(*problem_->environment(instances), settings.encoder);
    const auto env = problem_->environment(started.instances);
    return decode_then_score(
        [&] {
          const auto decode_with = [&](const Instances& batch, const torch::Tensor& encoded) {
            const auto decoding = problem_->environment(batch);
            return decode(*decoding, *model_->start(*decoding, encoded, settings, K), selection,
                          generator, forced);
          };
          if (K == 1 && selection == Selection::sample && !forced.defined() && !attention_.probes &&
              env->steps_fixed()) {
            // The embeddings travel as one more field of the batch: a CUDA graph of the
            // decode reads them from its buffers (environments read their own fields only).
            return graphs_.run(
                started.instances.with(kEmbeddingsField, embeddings.detach()),
                [&](const Instances& batch) {
                  return decode_with(batch, batch.at(kEmbeddingsField));
                },
                /*sampled=*/true, generator);
          }
          return decode_with(started.instances, embeddings.detach());
        },
        [&](const torch::Tensor& actions) {
          return model_->score(*env, embeddings, settings, actions, K);
        },
        forced_steps(selection, forced));
  }
  const auto env = problem_->environment(started.instances);
  if (tile_size() > 0 && tile_size() < env->size()) {
    throw std::invalid_argument("tiled decoding (--window-at tiles) applies to whole solves only");
  }
  if (!attention_.window_parts.view || window == 0 || window >= env->size()) {
    const auto settings = plan(env->size());
    if (K > 1 && window == 0 && !attention_.probes) {  // encode once per instance, not per start
      const auto embeddings = model_->encode(*problem_->environment(instances), settings.encoder);
      return decode(*env, *model_->start(*env, embeddings, settings, K), selection, generator,
                    forced);
    }
    if (selection != Selection::replay && mode == Mode::inference && !forced.defined() &&
        !attention_.probes && env->steps_fixed()) {
      return graphs_.run(
          started.instances,
          [&](const Instances& batch) {
            // A capture decodes its own buffers; the batch as given has its environment.
            const auto own = &batch == &started.instances ? nullptr : problem_->environment(batch);
            auto& e = own ? *own : *env;
            return decode(e, *model_->start(e, settings), selection, generator, forced);
          },
          selection == Selection::sample, generator);
    }
    return decode(*env, *model_->start(*env, settings), selection, generator, forced);
  }
  auto inside = attention_;  // a view is an instance of its own: no further window in it
  inside.window = 0;
  const auto policy = model_->start_local(
      *env,
      [this, inside](int64_t k) {
        return encoder_plan(inside, model_->options().encoder, train_n_, k);
      },
      window);
  return decode(*env, *policy, selection, generator, forced);
}

std::unique_ptr<Agent> AttentionAgent::clone() const {
  auto copy = std::make_unique<AttentionAgent>(problem_, model_->options(), train_n_);
  nn::match_placement(*model_, *copy->model_);
  nn::copy_module_state(*model_, *copy->model_);
  copy->model_->train(model_->is_training());
  copy->attention_ = attention_;
  return copy;
}

Attributes AttentionAgent::spec() const {
  const auto& o = model_->options();
  return encoder_spec(problem_->name(), "attention_model", o.encoder, o.tanh_clip, train_n_);
}

}  // namespace eie::policy
