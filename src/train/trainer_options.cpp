#include "src/train/trainer_options.h"

#include <algorithm>
#include <stdexcept>

namespace eie {

BaselineKind parse_baseline(const std::string& text) {
  if (text == "rollout") return BaselineKind::rollout;
  if (text == "multistart") return BaselineKind::multistart;
  throw std::invalid_argument("--baseline: expected rollout or multistart, got '" + text + "'");
}

std::string to_string(BaselineKind kind) {
  return kind == BaselineKind::rollout ? "rollout" : "multistart";
}

void check_world_size(const TrainerOptions& o, int64_t world_size) {
  if (o.batch % world_size != 0) {
    throw std::invalid_argument("--batch " + std::to_string(o.batch) +
                                " is not divisible by the world size " +
                                std::to_string(world_size));
  }
  if (std::min(o.val_size, o.baseline_eval_size) < world_size) {
    throw std::invalid_argument(
        "--val-size and --baseline-eval-size must be at least the world size " +
        std::to_string(world_size) + " (a share each)");
  }
}

void check_options(const Agent& agent, const TrainerOptions& o, const Collective* collective) {
  if (collective) check_world_size(o, collective->size());
  if (!o.sizes.empty() && !o.teacher.empty()) {
    throw std::invalid_argument("--sizes: no --teacher with it (imitation runs at N)");
  }
  if (o.baseline == BaselineKind::rollout) {
    if (o.starts != 0 || o.augment != 1 || o.learn_first) {
      throw std::invalid_argument(
          "--starts, --augment and --learn-first need --baseline multistart");
    }
    return;
  }
  if (!o.teacher.empty()) {
    throw std::invalid_argument("--teacher imitates a heuristic: no --baseline multistart with it");
  }
  const int64_t smallest = o.sizes.empty() ? o.n : o.sizes.min;  // of a step's instances
  if (o.starts < 0 || o.starts > smallest) {
    throw std::invalid_argument(
        "--starts " + std::to_string(o.starts) + ": expected 1.." + std::to_string(smallest) +
        " (first actions of an instance of n = " + std::to_string(smallest) + ")");
  }
  if (o.augment != 1 && o.augment != 8) {
    throw std::invalid_argument("--augment " + std::to_string(o.augment) + ": expected 1 or 8");
  }
  if (o.augment == 8) {
    auto probe = at::make_generator<at::CPUGeneratorImpl>(o.seed);
    const auto& problem = agent.problem();
    if (problem.symmetries(problem.generate(1, o.n, probe)).size() != 8) {
      throw std::invalid_argument("--augment 8: problem '" + problem.name() +
                                  "' has no 8 symmetries (its solutions are not invariant under "
                                  "the square's symmetries)");
    }
  }
}

}  // namespace eie
