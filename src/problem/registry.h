#pragma once

// The problems eie knows, each registered by its own folder (problems/<name>/
// register.cpp, a static registration in the executables' objects): the core and
// the CLI reach problems only through these descriptors and never name one.

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/problem/instance_file.h"
#include "src/problem/problem.h"

namespace eie {

// Settings that say how a problem's instances are drawn, by option name
// ("domain", "capacity", ...): values as the user gave them, absent or "" for the
// problem's default.
using ProblemOptions = std::map<std::string, std::string>;

// The value of `name` in `options`, "" when absent.
[[nodiscard]] std::string option(const ProblemOptions& options, const std::string& name);

struct ProblemOption {
  std::string name;        // the CLI flag (--name), bench key and dataset attribute
  std::string help;        // its values and default, for --help
  bool recorded = false;   // eie gen records it as a string attribute of the dataset
  std::string fallback;    // the value meant when none is given ("": it depends on others)
  std::string sweep_key;   // bench key of a list of values, a block of rows each ("": none)
  std::string sweep_label; // what precedes a value in the rows of its block ("C=": "C=20 sqrt")
  std::vector<std::string> values;  // every value it takes, when they are few (tests try each)
};

// An instance file format: its extension (".tsp") and its reader, which throws
// std::invalid_argument naming the file for malformed input.
struct InstanceFormat {
  std::string extension;
  std::function<std::unique_ptr<InstanceFile>(const std::filesystem::path&)> read;
};

// A field of the problem's instances, as datasets and the Python module hold it.
struct InstanceField {
  std::string name;         // "coords"
  torch::ScalarType dtype;  // what the problem reads
  int64_t dims;             // rank, the instance dimension included
  std::string shape;        // "[count, n, 2]", for messages and docs
};

struct ProblemDescriptor {
  std::string name;                    // "tsp": --problem, dataset and model attributes
  std::string counts;                  // what the size n counts ("cities")
  std::vector<ProblemOption> options;  // generator settings
  // The problem under `options` (every fallback filled in: with_defaults);
  // std::invalid_argument for values it does not know.
  std::function<std::shared_ptr<const Problem>(const ProblemOptions&)> make;
  // Adam's default learning rate for training under `options` (as for `make`).
  std::function<double(const ProblemOptions&)> default_lr = [](const ProblemOptions&) {
    return 1e-4;
  };
  bool node_positions = false;  // the first two node features are positions (windows apply)
  std::string local_search;     // the strongest Problem::improve() method ("": none), what
                                // eie solve's time limit improves the policy's solutions with
  std::string classical;        // the construction heuristic eie solve's time limit also runs
                                // (its improved solution is a floor under the policy's)
  bool is_default = false;      // the problem of commands given no --problem
  std::vector<InstanceFormat> formats;
  std::vector<InstanceField> fields;  // every field of an instance batch
  // The solutions `actions` [B, T] (the decode loop's form, on the CPU) of `instances`
  // under the names users read ("tours" [B, n] for tsp); unset: {"actions": actions}.
  std::function<SolutionTensors(const Instances&, const torch::Tensor&)> solution;
};

// Adds a problem; throws std::logic_error if its name or an extension is taken.
// Returns true, so that a registration can initialise a static.
bool register_problem(ProblemDescriptor descriptor);

// Registered problems, in name order.
[[nodiscard]] std::vector<const ProblemDescriptor*> problem_descriptors();
// The problem of commands given no --problem (the one registered as default).
[[nodiscard]] std::string default_problem();
// Throws std::invalid_argument naming the known problems.
[[nodiscard]] const ProblemDescriptor& problem_descriptor(const std::string& name);

// `options` with the fallback of each of the problem's options it leaves empty.
[[nodiscard]] ProblemOptions with_defaults(const ProblemDescriptor& problem,
                                           const ProblemOptions& options);

// The problem `name` under `options`; an option the problem does not have is an
// error (std::invalid_argument), as are unknown names.
[[nodiscard]] std::shared_ptr<const Problem> make_problem(const std::string& name,
                                                          const ProblemOptions& options = {});

// Throws std::invalid_argument unless `instances` has exactly the problem's fields, each of
// its dtype and rank, all on one device, and the problem validates them: what instances
// from outside eie's own files pass before a problem reads them.
void check_instances(const ProblemDescriptor& descriptor, const Problem& problem,
                     const Instances& instances);

// The instance file at `path`, read by the problem that registered its extension.
[[nodiscard]] std::unique_ptr<InstanceFile> read_instance_file(const std::filesystem::path& path);

}  // namespace eie
