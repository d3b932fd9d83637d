#pragma once

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/packing.h"
#include "src/problem/instance_file.h"

namespace eie::bpp3d {

// A .bpp file as an InstanceFile; solutions are placements files (bpp_file.h).
class BppInstanceFile final : public InstanceFile {
 public:
  BppInstanceFile(BppData data, std::string name);
  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] std::shared_ptr<const Problem> problem() const override;
  [[nodiscard]] Instances instances() const override;
  // height and load_rate.
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
  [[nodiscard]] Picture picture(const std::vector<Placement>& placements,
                                std::optional<double> optimum) const;
  // The placements of `solution`, checked against this instance.
  [[nodiscard]] std::vector<Placement> checked_placements(
      const std::filesystem::path& solution) const;
  BppData data_;      // as read
  std::string name_;  // file stem
};

}  // namespace eie::bpp3d
