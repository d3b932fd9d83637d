#include "src/train/multistart.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/agent/strategies.h"

namespace eie {

namespace {

// The instances of `parts` one after the other.
Instances concatenated(const std::vector<Instances>& parts) {
  std::map<std::string, torch::Tensor> fields;
  for (const auto& [name, first] : parts.front().fields()) {
    std::vector<torch::Tensor> pieces;
    for (const auto& part : parts) pieces.push_back(part.at(name));
    fields[name] = torch::cat(pieces, 0);
  }
  return Instances(std::move(fields));
}

}  // namespace

torch::Tensor shared_baseline_advantages(const torch::Tensor& cost, int64_t copies,
                                         int64_t starts) {
  const auto per_instance = cost.view({copies, -1, starts});
  return (per_instance - per_instance.mean(std::vector<int64_t>{0, 2}, true)).reshape(cost.sizes());
}

torch::Tensor first_choice_loss(const torch::Tensor& first_log_probs,
                                const torch::Tensor& advantage, int64_t starts) {
  const auto log_p = first_log_probs.view({-1, starts});
  const auto weight = torch::softmax(log_p.detach(), 1);
  return (weight * advantage.view({-1, starts}) * log_p).sum(1).mean();
}

MultiStartLoss multistart_loss(Agent& agent, const Instances& batch, int64_t copies, int64_t starts,
                               torch::Generator& generator, bool learn_first) {
  const auto& problem = agent.problem();
  Instances all = batch;
  if (copies > 1) {
    auto variants = problem.symmetries(batch);
    if (static_cast<int64_t>(variants.size()) != copies) {
      throw std::invalid_argument("--augment " + std::to_string(copies) + ": problem '" +
                                  problem.name() + "' has " + std::to_string(variants.size()) +
                                  " symmetric copies of an instance");
    }
    all = concatenated(variants);
  }
  const auto t = agent.rollout(all, Selection::sample, generator,
                               problem.start_actions(all, starts), Mode::training);
  const auto advantage = shared_baseline_advantages(t.cost, copies, starts).detach();
  auto loss = (advantage * t.log_likelihood).mean();
  if (learn_first)
    loss = loss + first_choice_loss(t.step_log_probs.select(1, 0), advantage, starts);
  return {loss, t.cost.mean().item<double>(), t.actions};
}

MultiStart::MultiStart(Agent& agent, const TrainerOptions& o, Collective* collective)
    : agent_(agent),
      copies_(o.augment),
      starts_(o.starts),
      learn_first_(o.learn_first),
      collective_(collective) {}

StepLoss MultiStart::loss(const Instances& batch, int64_t n, int64_t, torch::Generator& generator) {
  const auto m = multistart_loss(agent_, batch, copies_, starts_ > 0 ? starts_ : default_starts(n),
                                 generator, learn_first_);
  return {m.loss, mean_over_ranks(m.mean_cost, collective_)};
}

}  // namespace eie
