#include "src/problem/registry.h"

#include <stdexcept>

namespace eie {

namespace {

// Function-local, so that registrations in other objects' static initialisers
// always find it constructed.
std::map<std::string, ProblemDescriptor>& registry() {
  static std::map<std::string, ProblemDescriptor> problems;
  return problems;
}

std::string known_names() {
  std::string names;
  for (const auto& [name, descriptor] : registry()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

std::string option(const ProblemOptions& options, const std::string& name) {
  const auto it = options.find(name);
  return it == options.end() ? std::string() : it->second;
}

bool register_problem(ProblemDescriptor descriptor) {
  for (const auto& [name, other] : registry()) {
    if (name == descriptor.name) throw std::logic_error("problem '" + name + "' registered twice");
    for (const auto& mine : descriptor.formats) {
      for (const auto& theirs : other.formats) {
        if (mine.extension == theirs.extension) {
          throw std::logic_error("extension " + mine.extension + " registered by " + name +
                                 " and " + descriptor.name);
        }
      }
    }
  }
  auto name = descriptor.name;
  registry().emplace(std::move(name), std::move(descriptor));
  return true;
}

std::vector<const ProblemDescriptor*> problem_descriptors() {
  std::vector<const ProblemDescriptor*> all;
  for (const auto& [name, descriptor] : registry()) all.push_back(&descriptor);
  return all;
}

std::string default_problem() {
  for (const auto& [name, descriptor] : registry()) {
    if (descriptor.is_default) return name;
  }
  throw std::logic_error("no default problem registered");
}

const ProblemDescriptor& problem_descriptor(const std::string& name) {
  const auto it = registry().find(name);
  if (it == registry().end()) {
    throw std::invalid_argument("unknown problem '" + name + "' (known: " + known_names() + ")");
  }
  return it->second;
}

ProblemOptions with_defaults(const ProblemDescriptor& problem, const ProblemOptions& options) {
  auto completed = options;
  for (const auto& o : problem.options) {
    if (option(options, o.name).empty() && !o.fallback.empty()) completed[o.name] = o.fallback;
  }
  return completed;
}

std::shared_ptr<const Problem> make_problem(const std::string& name,
                                            const ProblemOptions& options) {
  const auto& descriptor = problem_descriptor(name);
  for (const auto& [key, value] : options) {
    bool known = false;
    for (const auto& o : descriptor.options) known = known || o.name == key;
    if (!known && !value.empty()) {
      throw std::invalid_argument("--" + key + " means nothing for problem '" + name + "'");
    }
  }
  return descriptor.make(with_defaults(descriptor, options));
}

std::unique_ptr<InstanceFile> read_instance_file(const std::filesystem::path& path) {
  const auto extension = path.extension().string();
  std::string known;
  for (const auto& [name, descriptor] : registry()) {
    for (const auto& format : descriptor.formats) {
      if (format.extension == extension) return format.read(path);
      known += (known.empty() ? "" : ", ") + format.extension;
    }
  }
  throw std::invalid_argument(path.string() + ": unknown instance format '" + extension +
                              "' (expected " + known + "; datasets go with --dataset)");
}

}  // namespace eie
