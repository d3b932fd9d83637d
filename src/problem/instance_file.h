#pragma once

// An instance file of any problem behind one interface; each problem registers
// the extensions it reads (src/problem/registry.h). Costs are reported in the
// file's own distance convention.

#include <torch/torch.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/problem/picture.h"
#include "src/problem/problem.h"

namespace eie {

// A finished solution as named tensors, for front ends that return tensors.
using SolutionTensors = std::map<std::string, torch::Tensor>;

class InstanceFile {
 public:
  virtual ~InstanceFile() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual std::shared_ptr<const Problem> problem() const = 0;
  // What was read but ignored (e.g. a VEHICLES limit), for the user to see.
  [[nodiscard]] virtual std::vector<std::string> notes() const { return {}; }
  // One instance, scaled for the policies (unit square).
  [[nodiscard]] virtual Instances instances() const = 0;
  // What a user reads about a solution (actions [T]) in the file's convention:
  // {"cost": ...} for routing, {"height": ..., "load_rate": ...} for packing.
  [[nodiscard]] virtual std::map<std::string, double> measures(
      const torch::Tensor& actions) const = 0;
  // Writes the solution in the problem's solution format, atomically.
  virtual void write_solution(const std::filesystem::path& path,
                              const torch::Tensor& actions) const = 0;
  // A solution file in the problem's format (eie's or another solver's) as the tensors
  // ProblemDescriptor::solution names, a batch of one ("tours" [1, n] for tsp), checked
  // against this instance first as picture(solution) checks it.
  [[nodiscard]] virtual SolutionTensors read_solution(
      const std::filesystem::path& solution) const = 0;
  // Writes tensors as read_solution gives them in the problem's format, atomically,
  // after the same check (std::invalid_argument naming `path`).
  virtual void write_solution(const std::filesystem::path& path,
                              const SolutionTensors& solution) const = 0;
  // A picture of the solution `actions`, titled with the instance, its measures and
  // the gap to `optimum` when known.
  [[nodiscard]] virtual Picture picture(const torch::Tensor& actions,
                                        std::optional<double> optimum) const = 0;
  // The same for a solution file in the problem's solution format (written by eie or
  // another solver), checked against this instance first: std::invalid_argument
  // naming the file when it is malformed or does not solve this instance.
  [[nodiscard]] virtual Picture picture(const std::filesystem::path& solution,
                                        std::optional<double> optimum) const = 0;
};

// The one solution in solution[name] (a batch of one with `dims` dimensions) on the CPU
// as `dtype`; std::invalid_argument naming the field and its shape otherwise.
[[nodiscard]] torch::Tensor single_solution(const SolutionTensors& solution,
                                            const std::string& name, int64_t dims,
                                            torch::ScalarType dtype);

// Runs `check` on a solution read from `solution`; its std::logic_error becomes
// std::invalid_argument "SOLUTION: not WHAT: why" (what = "a tour of kroA100").
inline void check_solution_file(const std::filesystem::path& solution, const std::string& what,
                                const std::function<void()>& check) {
  try {
    check();
  } catch (const std::logic_error& e) {
    throw std::invalid_argument(solution.string() + ": not " + what + ": " + e.what());
  }
}

}  // namespace eie
