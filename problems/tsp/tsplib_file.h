#pragma once

#include "problems/tsp/tsplib.h"
#include "src/problem/instance_file.h"

namespace eie::tsp {

// A TSPLIB .tsp file as an InstanceFile; solutions are .tour files.
class TsplibFile final : public InstanceFile {
 public:
  explicit TsplibFile(TsplibInstance instance);
  [[nodiscard]] std::string name() const override { return instance_.name; }
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
  [[nodiscard]] Tour tour_of(const torch::Tensor& actions) const;
  // Throws std::invalid_argument naming `path` unless `tour` is a tour of this instance.
  void check(const Tour& tour, const std::filesystem::path& path) const;
  [[nodiscard]] Picture picture(const Tour& tour, std::optional<double> optimum) const;
  TsplibInstance instance_;  // as read, original coordinates
};

}  // namespace eie::tsp
