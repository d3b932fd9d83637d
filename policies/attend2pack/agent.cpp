#include "policies/attend2pack/agent.h"

#include "policies/encoder_agent.h"
#include "src/nn/module_state.h"

namespace eie::policy {

Attend2PackAgent::Attend2PackAgent(std::shared_ptr<const bpp3d::Bpp3dProblem> problem,
                                   const Attend2PackOptions& options, int64_t train_n)
    : problem_(std::move(problem)), model_(options), train_n_(train_n) {}

AttentionPlan Attend2PackAgent::plan(int64_t n) const {
  return encoder_plan(attention_, model_->options().encoder, train_n_, n);
}

torch::Tensor Attend2PackAgent::embed(const Instances& instances) {
  const auto env = problem_->environment(instances);
  return model_->encode(*env, plan(env->size()).encoder);
}

Trajectory Attend2PackAgent::run(const Instances& instances, Selection selection,
                                 std::optional<torch::Generator> generator,
                                 const torch::Tensor& replayed, const Copies& copies, Mode mode) {
  std::optional<torch::NoGradGuard> no_grad;
  if (mode == Mode::inference) no_grad.emplace();
  // Multi-start and sample:K packings encode every copy: the boxes' embeddings follow
  // the packing state, so there is no encoding to share.
  const auto started = with_copies(instances, copies);
  const auto& forced = started.forced.defined() ? started.forced : replayed;
  const auto env = problem_->environment(started.instances);
  const auto settings = plan(env->size());
  const auto embeddings = model_->encode(*env, settings.encoder);
  if (mode == Mode::inference) {
    return decode(*env, *model_->start(*env, embeddings, settings.glimpse), selection, generator,
                  forced);
  }
  // Training: decode without gradients, keeping each step's inputs, then score
  // every step at once from them (a step-by-step graph costs more than the decoding).
  PackingSteps steps;
  return decode_then_score(
      [&] {
        return decode(*env, *model_->start(*env, embeddings.detach(), settings.glimpse, &steps),
                      selection, generator, forced);
      },
      [&](const torch::Tensor& actions) {
        return model_->score(*env, steps, embeddings, settings.glimpse, actions);
      },
      forced_steps(selection, forced));
}

std::unique_ptr<Agent> Attend2PackAgent::clone() const {
  auto copy = std::make_unique<Attend2PackAgent>(problem_, model_->options(), train_n_);
  nn::match_placement(*model_, *copy->model_);
  nn::copy_module_state(*model_, *copy->model_);
  copy->model_->train(model_->is_training());
  copy->attention_ = attention_;
  return copy;
}

Attributes Attend2PackAgent::spec() const {
  const auto& o = model_->options();
  return encoder_spec(problem_->name(), "attend2pack", o.encoder, o.tanh_clip, train_n_);
}

}  // namespace eie::policy
