#include "problems/bpp3d/bpp_instance_file.h"

#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/bpp_file.h"
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

}  // namespace eie::bpp3d
