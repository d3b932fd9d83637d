#include "attention_model/agent.h"

#include "encoder_agent.h"
#include "nn/module_state.h"

namespace eie::policy {

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
                               const torch::Tensor& replayed) {
  const int64_t window = attention_.window;
  if (window == 0 && torch::GradMode::is_enabled()) {
    // Training: encode once with gradients, decode without them, score with them.
    const auto env = problem_->environment(instances);
    const auto settings = plan(env->size());
    const auto embeddings = model_->encode(*env, settings.encoder);
    return decode_then_score(
        [&] {
          const auto decoding = problem_->environment(instances);
          return decode(*decoding, *model_->start(*decoding, embeddings.detach(), settings),
                        selection, generator, replayed);
        },
        [&](const torch::Tensor& actions) {
          return model_->score(*env, embeddings, settings, actions);
        });
  }
  const auto env = problem_->environment(instances);
  if (tile_size() > 0 && tile_size() < env->size()) {
    throw std::invalid_argument("tiled decoding (--window-at tiles) applies to whole solves only");
  }
  if (!attention_.window_parts.view || window == 0 || window >= env->size()) {
    return decode(*env, *model_->start(*env, plan(env->size())), selection, generator, replayed);
  }
  auto inside = attention_;  // a view is an instance of its own: no further window in it
  inside.window = 0;
  const auto policy = model_->start_local(
      *env,
      [this, inside](int64_t k) {
        return encoder_plan(inside, model_->options().encoder, train_n_, k);
      },
      window);
  return decode(*env, *policy, selection, generator, replayed);
}

std::unique_ptr<Agent> AttentionAgent::clone() const {
  auto copy = std::make_unique<AttentionAgent>(problem_, model_->options(), train_n_);
  nn::copy_module_state(*model_, *copy->model_);
  copy->model_->train(model_->is_training());
  copy->attention_ = attention_;
  return copy;
}

std::map<std::string, h5::Attribute> AttentionAgent::spec() const {
  const auto& o = model_->options();
  return encoder_spec(problem_->name(), "attention_model", o.encoder, o.tanh_clip, train_n_);
}

}  // namespace eie::policy
