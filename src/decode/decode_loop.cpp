#include "decode/decode_loop.h"

#include <vector>

namespace eie {

Trajectory decode(Environment& env, StepPolicy& policy, Selection selection,
                  std::optional<torch::Generator> generator) {
  const c10::optional<torch::Generator> sampler =
      generator ? c10::optional<torch::Generator>(*generator) : c10::nullopt;
  std::vector<torch::Tensor> actions, step_log_probs;
  while (!env.done()) {
    const auto feasible = env.feasible();
    const auto log_p = policy.log_probs(feasible);
    torch::Tensor action;
    {
      torch::NoGradGuard no_grad;
      action = selection == Selection::greedy
                   ? log_p.argmax(1)
                   : torch::multinomial(log_p.exp(), 1, false, sampler).squeeze(1);
    }
    step_log_probs.push_back(log_p.gather(1, action.unsqueeze(1)).squeeze(1));
    actions.push_back(action);
    env.step(action);
  }
  Trajectory t;
  t.actions = torch::stack(actions, 1);
  t.step_log_probs = torch::stack(step_log_probs, 1);
  t.log_likelihood = t.step_log_probs.sum(1);
  t.cost = env.cost();
  return t;
}

}  // namespace eie
