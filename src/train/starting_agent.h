#pragma once

// The network a training run starts from: eie train's --resume and --init.

#include <filesystem>
#include <memory>

#include "src/agent/agent.h"
#include "src/agent/policy_registry.h"
#include "src/train/trainer_options.h"

namespace eie {

// The agent a run of `options` on `problem` starts from: on options.resume, the
// network as the checkpoint options.resume_from has it; else with an `init` model
// (non-empty), that model's sizes and weights, network's distance bias added when it
// has one (its betas start at BETA); else a fresh network of `network`'s sizes.
[[nodiscard]] std::unique_ptr<Agent> starting_agent(const std::shared_ptr<const Problem>& problem,
                                                    const NetworkOptions& network,
                                                    const TrainerOptions& options,
                                                    const std::filesystem::path& init);

}  // namespace eie
