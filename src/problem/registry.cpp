#include "src/problem/registry.h"

#include <optional>
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

// A dtype as numpy and PyTorch name it ("float32"), what a user of either reads.
std::string dtype_name(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat:
      return "float32";
    case torch::kDouble:
      return "float64";
    case torch::kHalf:
      return "float16";
    case torch::kInt:
      return "int32";
    case torch::kLong:
      return "int64";
    case torch::kBool:
      return "bool";
    default:
      return c10::toString(type);
  }
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

void check_instances(const ProblemDescriptor& descriptor, const Problem& problem,
                     const Instances& instances) {
  const auto& name = descriptor.name;
  std::optional<torch::Device> device;
  for (const auto& field : descriptor.fields) {
    if (!instances.has(field.name)) {
      throw std::invalid_argument(name + ": missing field '" + field.name + "' " + field.shape);
    }
    const auto& t = instances.at(field.name);
    if (t.dim() != field.dims) {
      throw std::invalid_argument(name + ": " + field.name + " must have shape " + field.shape +
                                  ", got " + std::to_string(t.dim()) + " dimensions");
    }
    if (t.scalar_type() != field.dtype) {
      throw std::invalid_argument(name + ": " + field.name + " must be " + dtype_name(field.dtype) +
                                  ", got " + dtype_name(t.scalar_type()));
    }
    if (!t.device().is_cpu() && !t.device().is_cuda()) {
      throw std::invalid_argument(name + ": " + field.name + " is on device '" + t.device().str() +
                                  "' (expected cpu or cuda)");
    }
    if (device && *device != t.device()) {
      throw std::invalid_argument(name + ": " + field.name + " is on " + t.device().str() +
                                  ", other fields on " + device->str());
    }
    device = t.device();
  }
  for (const auto& [field, tensor] : instances.fields()) {
    bool known = false;
    for (const auto& f : descriptor.fields) known = known || f.name == field;
    if (!known) throw std::invalid_argument(name + ": unknown field '" + field + "'");
  }
  problem.validate(instances.to(torch::kCPU));
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
