#pragma once

// Model files (src/io/model_format.h) as agents: the sizes a file records, the
// agent it holds (made by the policy family it names), and an agent saved as one.

#include <filesystem>
#include <memory>
#include <string>

#include "src/agent/agent.h"
#include "src/agent/policy_registry.h"

namespace eie {

// The network sizes recorded in a model or checkpoint file, range-checked.
[[nodiscard]] NetworkOptions network_options_of(const std::filesystem::path& path);

// The problem a model or checkpoint file was trained for ("tsp"); throws unless it is an
// eie file of this format version.
[[nodiscard]] std::string model_problem(const std::filesystem::path& path);

// The agent stored in an eie model or checkpoint file, bound to `problem`; throws
// if the file was made for another problem or another format version.
[[nodiscard]] std::unique_ptr<Agent> load_agent(const std::filesystem::path& path,
                                                std::shared_ptr<const Problem> problem);

// Writes the agent's network and spec atomically (a model file).
void save_model(Agent& agent, const std::filesystem::path& path);

}  // namespace eie
