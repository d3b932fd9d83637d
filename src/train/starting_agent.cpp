#include "src/train/starting_agent.h"

#include "src/agent/model_file.h"
#include "src/nn/module_state.h"

namespace eie {

std::unique_ptr<Agent> starting_agent(const std::shared_ptr<const Problem>& problem,
                                      const NetworkOptions& network, const TrainerOptions& o,
                                      const std::filesystem::path& init) {
  if (o.resume) return make_agent(problem, network_options_of(o.resume_from), o.n);
  if (init.empty()) return make_agent(problem, network, o.n);
  auto sizes = network_options_of(init);
  if (network.encoder.trained_bias.enabled)
    sizes.encoder.trained_bias = network.encoder.trained_bias;
  auto agent = make_agent(problem, sizes, o.n);
  nn::copy_module_state(load_agent(init, problem)->network(), agent->network(), nn::NewState::keep);
  return agent;
}

}  // namespace eie
