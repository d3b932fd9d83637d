#include "src/decode/decode_loop.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace eie {

namespace {

// One draw per row of `probs` [B, A] by inverse CDF: a uniform per row and a
// binary search in the cumulative sums. (torch::multinomial draws an exponential
// for every entry: 12,000 logarithms per row at a packing position step.)
torch::Tensor sample_rows(const torch::Tensor& probs, const c10::optional<torch::Generator>& gen) {
  const auto cumulative = probs.cumsum(1);
  const auto total = cumulative.select(1, probs.size(1) - 1).unsqueeze(1);
  const auto target = torch::rand({probs.size(0), 1}, gen, probs.options()) * total;
  const auto drawn = torch::searchsorted(cumulative, target, false, true).squeeze(1);
  // target can round up to the total: stay on the last action that has mass.
  const auto last = probs.size(1) - 1 - (probs > 0).flip(1).to(torch::kByte).argmax(1);
  return torch::minimum(drawn, last);
}

}  // namespace

Trajectory decode(Environment& env, StepPolicy& policy, Selection selection,
                  std::optional<torch::Generator> generator, const torch::Tensor& forced) {
  if (selection == Selection::replay && !forced.defined()) {
    throw std::invalid_argument("decode: replay needs the actions to replay");
  }
  const int64_t prefix = forced.defined() ? forced.size(1) : 0;
  const c10::optional<torch::Generator> sampler =
      generator ? c10::optional<torch::Generator>(*generator) : c10::nullopt;
  std::vector<torch::Tensor> actions, step_log_probs;
  const int64_t max_steps = env.max_steps();
  while (!env.done()) {
    if (static_cast<int64_t>(actions.size()) >= max_steps) {
      throw std::runtime_error("decode: no solution after " + std::to_string(max_steps) +
                               " steps, the most this problem needs");
    }
    const auto feasible = env.feasible();
    const auto log_p = policy.log_probs(feasible);
    const auto step = static_cast<int64_t>(actions.size());
    torch::Tensor action;
    {
      torch::NoGradGuard no_grad;
      if (step < prefix) {
        action = forced.select(1, step);
        if (!feasible.gather(1, action.unsqueeze(1)).all().item<bool>()) {
          throw std::invalid_argument(selection == Selection::replay
                                          ? "decode: a replayed action is infeasible"
                                          : "decode: a forced first action is infeasible");
        }
      } else if (selection == Selection::replay) {
        throw std::invalid_argument("decode: the replayed solutions end before the problem does");
      } else {
        action = selection == Selection::greedy ? log_p.argmax(1) : sample_rows(log_p.exp(), sampler);
        // Only a broken policy (non-finite logits) chooses outside the mask; stepping on
        // would corrupt the state, and a routing problem might never finish.
        if (!feasible.gather(1, action.unsqueeze(1)).all().item<bool>()) {
          throw std::runtime_error("decode: the policy chose an infeasible action "
                                   "(non-finite weights or inputs?)");
        }
      }
    }
    step_log_probs.push_back(log_p.gather(1, action.unsqueeze(1)).squeeze(1));
    actions.push_back(action);
    env.step(action);
  }
  Trajectory t;
  t.actions = torch::stack(actions, 1);
  t.step_log_probs = torch::stack(step_log_probs, 1);
  t.log_likelihood = own_log_likelihood(t.step_log_probs, forced_steps(selection, forced));
  t.cost = env.cost();
  return t;
}

torch::Tensor own_log_likelihood(const torch::Tensor& step_log_probs, int64_t forced_steps) {
  return step_log_probs.slice(1, std::min(forced_steps, step_log_probs.size(1))).sum(1);
}

int64_t forced_steps(Selection selection, const torch::Tensor& forced) {
  return selection == Selection::replay || !forced.defined() ? 0 : forced.size(1);
}

}  // namespace eie
