#include "attention_model/agent.h"

#include <cmath>

#include "nn/encoder.h"
#include "nn/module_state.h"

namespace eie::policy {

AttentionAgent::AttentionAgent(std::shared_ptr<const RoutingProblem> problem,
                               const AttentionModelOptions& options, int64_t train_n)
    : problem_(std::move(problem)), model_(options), train_n_(train_n) {}

AttentionPlan AttentionAgent::plan(int64_t n) const {
  const auto& enc = model_->options().encoder;
  const ScaleQuery query{n, enc.embed_dim / enc.heads, train_n_};
  if (attention_.policy)
    return plan_attention(*attention_.policy, attention_.scope, query, enc.layers);
  const AttentionSetting trained{1.0 / std::sqrt(static_cast<double>(query.head_dim)), 0};
  return AttentionPlan{std::vector<AttentionSetting>(enc.layers, trained), trained};
}

torch::Tensor AttentionAgent::embed(const Instances& instances) {
  const auto env = problem_->environment(instances);
  return model_->encode(*env, plan(env->size()).encoder);
}

Trajectory AttentionAgent::rollout(const Instances& instances, Selection selection,
                                   std::optional<torch::Generator> generator) {
  const auto env = problem_->environment(instances);
  const auto policy = model_->start(*env, plan(env->size()));
  return decode(*env, *policy, selection, generator);
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
  return {{"problem", problem_->name()},
          {"policy", std::string("attention_model")},
          {"embed_dim", o.encoder.embed_dim},
          {"heads", o.encoder.heads},
          {"encoder_layers", o.encoder.layers},
          {"ff_hidden", o.encoder.ff_hidden},
          {"normalization", nn::to_string(o.encoder.normalization)},
          {"tanh_clip", o.tanh_clip},
          {"train_n", train_n_},
          {"trained_scale", std::string("sqrt")}};
}

}  // namespace eie::policy
