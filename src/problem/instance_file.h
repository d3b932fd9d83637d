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
