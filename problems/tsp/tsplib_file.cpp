#include "tsp/tsplib_file.h"

#include "tsp/problem.h"

namespace eie::tsp {

TsplibFile::TsplibFile(TsplibInstance instance) : instance_(std::move(instance)) {}

std::shared_ptr<const Problem> TsplibFile::problem() const {
  return std::make_shared<TspProblem>(Domain::unit);
}

Instances TsplibFile::instances() const {
  const auto unit = fit_unit_square(instance_.cities);
  auto coords = torch::empty({1, static_cast<int64_t>(unit.size()), 2}, torch::kFloat);
  auto* c = coords.data_ptr<float>();
  for (size_t i = 0; i < unit.size(); ++i) {
    c[2 * i] = static_cast<float>(unit[i].x);
    c[2 * i + 1] = static_cast<float>(unit[i].y);
  }
  return Instances({{"coords", coords}});
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
