#include "src/train/imitation.h"

namespace eie {

Imitation::Imitation(Agent& agent, const TrainerOptions& o, Collective* collective)
    : agent_(agent),
      teacher_(o.teacher),
      collective_(collective),
      baseline_(agent, o.n, o.baseline_eval_size, o.seed, o.alpha, collective) {
  auto probe = at::make_generator<at::CPUGeneratorImpl>(o.seed);
  (void)agent.problem().heuristic(teacher_, agent.problem().generate(2, o.n, probe));
}

StepLoss Imitation::loss(const Instances& batch, int64_t, int64_t, torch::Generator&) {
  const auto actions = agent_.problem().heuristic(teacher_, batch).to(agent_.device());
  const auto t = agent_.replay(batch, actions, Mode::training);
  return {-t.step_log_probs.mean(), mean_over_ranks(t.cost.mean().item<double>(), collective_)};
}

}  // namespace eie
