#include "problems/bpp3d/bpp_instance_file.h"

#include <cstdio>
#include <stdexcept>

#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/bpp_file.h"
#include "problems/bpp3d/packing_picture.h"
#include "problems/bpp3d/problem.h"

namespace eie::bpp3d {

namespace {
std::vector<int64_t> actions_vector(const torch::Tensor& actions) {
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  return {a.data_ptr<int64_t>(), a.data_ptr<int64_t>() + a.numel()};
}
}  // namespace

BppInstanceFile::BppInstanceFile(BppData data, std::string name)
    : data_(std::move(data)), name_(std::move(name)) {}

std::shared_ptr<const Problem> BppInstanceFile::problem() const {
  Protocol base = eie_protocol(data_.length, data_.width);
  return std::make_shared<Bpp3dProblem>(base);
}

Instances BppInstanceFile::instances() const { return instances_of(data_); }

std::map<std::string, double> BppInstanceFile::measures(const torch::Tensor& actions) const {
  const auto height = check_packing(data_, replay(data_, actions_vector(actions)));
  return {{"height", static_cast<double>(height)}, {"load_rate", load_rate(data_, height)}};
}

void BppInstanceFile::write_solution(const std::filesystem::path& path,
                                     const torch::Tensor& actions) const {
  write_placements(path, data_, replay(data_, actions_vector(actions)));
}

Picture BppInstanceFile::picture(const std::vector<Placement>& placements,
                                 std::optional<double> optimum) const {
  const auto height = check_packing(data_, placements);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f%%", 100 * load_rate(data_, height));
  return packing_picture(data_, placements,
                         name_ + ": " + std::to_string(data_.boxes.size()) + " boxes, height " +
                             std::to_string(height) + gap_text(static_cast<double>(height), optimum) +
                             ", load rate " + rate);
}

Picture BppInstanceFile::picture(const torch::Tensor& actions, std::optional<double> optimum) const {
  return picture(replay(data_, actions_vector(actions)), optimum);
}

std::vector<Placement> BppInstanceFile::checked_placements(
    const std::filesystem::path& solution) const {
  const auto packed = read_placements(solution);
  if (packed.length != data_.length || packed.width != data_.width) {
    throw std::invalid_argument(solution.string() + ": packed on a " +
                                std::to_string(packed.length) + "x" + std::to_string(packed.width) +
                                " base, the instance's is " + std::to_string(data_.length) + "x" +
                                std::to_string(data_.width));
  }
  check_solution_file(solution, "a packing of " + name_,
                      [&] { (void)check_packing(data_, packed.placements); });
  return packed.placements;
}

SolutionTensors BppInstanceFile::read_solution(const std::filesystem::path& solution) const {
  const auto placements = checked_placements(solution);
  auto rows =
      torch::empty({1, static_cast<int64_t>(placements.size()), kPlacementColumns}, torch::kInt);
  placement_rows(placements, rows.data_ptr<int32_t>());
  return {{"placements", rows}};
}

void BppInstanceFile::write_solution(const std::filesystem::path& path,
                                     const SolutionTensors& solution) const {
  const auto rows = single_solution(solution, "placements", 3, torch::kInt);
  if (rows.size(1) != kPlacementColumns) {
    throw std::invalid_argument(
        "solution: 'placements' must have 7 columns (box, x, y, z, dx, "
        "dy, dz), got " +
        std::to_string(rows.size(1)));
  }
  const auto placements = placements_of_rows(rows.data_ptr<int32_t>(), rows.size(0));
  check_solution_file(path, "a packing of " + name_,
                      [&] { write_placements(path, data_, placements); });
}

Picture BppInstanceFile::picture(const std::filesystem::path& solution,
                                 std::optional<double> optimum) const {
  return picture(checked_placements(solution), optimum);
}

}  // namespace eie::bpp3d
