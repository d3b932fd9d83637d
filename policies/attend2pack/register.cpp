// attend2pack in the policy registry (src/agent/policy_registry.h): 3D packing.
#include <stdexcept>

#include "policies/attend2pack/agent.h"
#include "src/agent/policy_registry.h"

namespace eie::policy {
namespace {

bool serves(const Problem& problem) {
  return dynamic_cast<const bpp3d::Bpp3dProblem*>(&problem) != nullptr;
}

std::unique_ptr<Agent> make(std::shared_ptr<const Problem> problem, const NetworkOptions& o,
                            int64_t train_n) {
  if (o.encoder.trained_bias.enabled) {
    throw std::invalid_argument(
        "attend2pack: no distance bias (box features are not positions)");
  }
  return std::make_unique<Attend2PackAgent>(
      std::dynamic_pointer_cast<const bpp3d::Bpp3dProblem>(std::move(problem)),
      Attend2PackOptions{o.encoder, o.tanh_clip}, train_n);
}

[[maybe_unused]] const bool registered = register_policy({"attend2pack", serves, make, {}});

}  // namespace
}  // namespace eie::policy
