#include "src/train/reinforce.h"

namespace eie {

Reinforce::Reinforce(Agent& agent, const TrainerOptions& o, ExponentialBaseline& warmup,
                     Collective* collective)
    : agent_(agent),
      warmup_epochs_(o.warmup_epochs),
      exp_beta_(o.exp_beta),
      warmup_(warmup),
      collective_(collective),
      baseline_(agent, o.n, o.baseline_eval_size, o.seed, o.alpha, collective) {}

StepLoss Reinforce::loss(const Instances& batch, int64_t, int64_t epoch,
                         torch::Generator& generator) {
  const bool warmup = epoch < warmup_epochs_;
  torch::Tensor reference;
  if (!warmup) reference = baseline_.costs(batch);
  const auto t = agent_.rollout(batch, Selection::sample, generator, {}, Mode::training);
  const double mean_cost = mean_over_ranks(t.cost.mean().item<double>(), collective_);
  if (warmup) reference = torch::full_like(t.cost, warmup_.update(mean_cost, exp_beta_));
  return {((t.cost - reference).detach() * t.log_likelihood).mean(), mean_cost};
}

}  // namespace eie
