#pragma once

#include "problems/cvrp/cvrplib.h"
#include "src/problem/instance_file.h"

namespace eie::cvrp {

// A CVRPLIB .vrp file as an InstanceFile; solutions are .sol files; costs in
// the file's convention (nint of Euclidean edges).
class CvrplibFile final : public InstanceFile {
 public:
  explicit CvrplibFile(CvrplibInstance instance);
  [[nodiscard]] std::string name() const override { return instance_.name; }
  [[nodiscard]] std::vector<std::string> notes() const override { return instance_.notes; }
  [[nodiscard]] std::shared_ptr<const Problem> problem() const override;
  [[nodiscard]] Instances instances() const override;
  [[nodiscard]] std::map<std::string, double> measures(const torch::Tensor& actions) const override;
  void write_solution(const std::filesystem::path& path,
                      const torch::Tensor& actions) const override;
  [[nodiscard]] SolutionTensors read_solution(const std::filesystem::path& solution) const override;
  void write_solution(const std::filesystem::path& path,
                      const SolutionTensors& solution) const override;
  [[nodiscard]] Picture picture(const torch::Tensor& actions,
                                std::optional<double> optimum) const override;
  [[nodiscard]] Picture picture(const std::filesystem::path& solution,
                                std::optional<double> optimum) const override;

 private:
  [[nodiscard]] Picture picture(const Routes& routes, std::optional<double> optimum) const;
  // Throws std::invalid_argument naming `path` unless `routes` solve this instance.
  void check(const Routes& routes, const std::filesystem::path& path) const;
  CvrplibInstance instance_;  // as read, original coordinates
};

}  // namespace eie::cvrp
