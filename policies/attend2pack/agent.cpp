#include "attend2pack/agent.h"

#include "encoder_agent.h"
#include "nn/module_state.h"

namespace eie::policy {

Attend2PackAgent::Attend2PackAgent(std::shared_ptr<const bpp3d::Bpp3dProblem> problem,
                                   const Attend2PackOptions& options, int64_t train_n)
    : problem_(std::move(problem)), model_(options), train_n_(train_n) {}

torch::Tensor Attend2PackAgent::embed(const Instances& instances) {
  const auto env = problem_->environment(instances);
  return model_->encode(
      *env, encoder_plan(attention_, model_->options().encoder, train_n_, env->size()).encoder);
}

Trajectory Attend2PackAgent::run(const Instances& instances, Selection selection,
                                 std::optional<torch::Generator> generator, const torch::Tensor& replayed) {
  const auto env = problem_->environment(instances);
  const auto policy = model_->start(
      *env, encoder_plan(attention_, model_->options().encoder, train_n_, env->size()));
  return decode(*env, *policy, selection, generator, replayed);
}

std::unique_ptr<Agent> Attend2PackAgent::clone() const {
  auto copy = std::make_unique<Attend2PackAgent>(problem_, model_->options(), train_n_);
  nn::copy_module_state(*model_, *copy->model_);
  copy->model_->train(model_->is_training());
  copy->attention_ = attention_;
  return copy;
}

std::map<std::string, h5::Attribute> Attend2PackAgent::spec() const {
  const auto& o = model_->options();
  return encoder_spec(problem_->name(), "attend2pack", o.encoder, o.tanh_clip, train_n_);
}

}  // namespace eie::policy
