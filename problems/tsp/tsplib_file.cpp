#include "problems/tsp/tsplib_file.h"

#include "problems/tsp/problem.h"
#include "problems/tsp/tensors.h"

namespace eie::tsp {

TsplibFile::TsplibFile(TsplibInstance instance) : instance_(std::move(instance)) {}

std::shared_ptr<const Problem> TsplibFile::problem() const {
  return std::make_shared<TspProblem>(Domain::unit);
}

Instances TsplibFile::instances() const {
  return Instances({{"coords", coords_tensor({fit_unit_square(instance_.cities)})}});
}

Tour TsplibFile::tour_of(const torch::Tensor& actions) const {
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  return Tour(a.data_ptr<int64_t>(), a.data_ptr<int64_t>() + a.numel());
}

std::map<std::string, double> TsplibFile::measures(const torch::Tensor& actions) const {
  return {{"cost", static_cast<double>(tsplib_length(instance_, tour_of(actions)))}};
}

void TsplibFile::write_solution(const std::filesystem::path& path,
                                const torch::Tensor& actions) const {
  const auto tour = tour_of(actions);
  write_tour(path, instance_.name, tour, tsplib_length(instance_, tour));
}

}  // namespace eie::tsp
