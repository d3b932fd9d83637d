#include "src/train/algorithm.h"

#include "src/train/imitation.h"
#include "src/train/multistart.h"
#include "src/train/reinforce.h"

namespace eie {

std::unique_ptr<Algorithm> make_algorithm(Agent& agent, const TrainerOptions& options,
                                          ExponentialBaseline& warmup, Collective* collective) {
  if (!options.teacher.empty()) return std::make_unique<Imitation>(agent, options, collective);
  if (options.baseline == BaselineKind::multistart) {
    return std::make_unique<MultiStart>(agent, options, collective);
  }
  return std::make_unique<Reinforce>(agent, options, warmup, collective);
}

}  // namespace eie
