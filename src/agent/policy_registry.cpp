#include "src/agent/policy_registry.h"

#include <map>
#include <stdexcept>

namespace eie {

namespace {

// Function-local, so that registrations in other objects' static initialisers
// always find it constructed.
std::map<std::string, PolicyDescriptor>& registry() {
  static std::map<std::string, PolicyDescriptor> policies;
  return policies;
}

}  // namespace

bool register_policy(PolicyDescriptor descriptor) {
  auto name = descriptor.name;
  if (!registry().emplace(name, std::move(descriptor)).second) {
    throw std::logic_error("policy '" + name + "' registered twice");
  }
  return true;
}

const PolicyDescriptor& policy_descriptor(const std::string& name) {
  const auto it = registry().find(name);
  if (it != registry().end()) return it->second;
  std::string known;
  for (const auto& [other, descriptor] : registry()) known += (known.empty() ? "" : ", ") + other;
  throw std::invalid_argument("unknown policy '" + name + "' (known: " + known + ")");
}

const PolicyDescriptor& policy_for(const Problem& problem) {
  for (const auto& [name, descriptor] : registry()) {
    if (descriptor.serves(problem)) return descriptor;
  }
  throw std::invalid_argument("no policy for problem '" + problem.name() + "'");
}

std::unique_ptr<Agent> make_agent(std::shared_ptr<const Problem> problem,
                                  const NetworkOptions& options, int64_t train_n) {
  return policy_for(*problem).make(std::move(problem), options, train_n);
}

std::unique_ptr<Agent> import_agent(const std::filesystem::path& path,
                                    std::shared_ptr<const Problem> problem) {
  for (const auto& [name, descriptor] : registry()) {
    if (descriptor.import && descriptor.serves(*problem)) return descriptor.import(path, problem);
  }
  throw std::invalid_argument(path.string() + ": no policy imports weights for problem '" +
                              problem->name() + "'");
}

}  // namespace eie
