#include "problems/tsp/tsplib_file.h"

#include <stdexcept>

#include "problems/tsp/problem.h"
#include "problems/tsp/tensors.h"
#include "problems/tsp/tour_picture.h"
#include "src/util/parse.h"

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

void TsplibFile::check(const Tour& tour, const std::filesystem::path& path) const {
  check_solution_file(path, "a tour of " + instance_.name,
                      [&] { check_tour(tour, static_cast<int64_t>(instance_.cities.size())); });
}

SolutionTensors TsplibFile::read_solution(const std::filesystem::path& solution) const {
  auto tour = read_tour(solution);
  check(tour, solution);
  const auto n = static_cast<int64_t>(tour.size());
  return {{"tours", torch::tensor(tour, torch::kLong).view({1, n})}};
}

void TsplibFile::write_solution(const std::filesystem::path& path,
                                const SolutionTensors& solution) const {
  const auto tour = tour_of(single_solution(solution, "tours", 2, torch::kLong));
  check(tour, path);
  write_tour(path, instance_.name, tour, tsplib_length(instance_, tour));
}

Picture TsplibFile::picture(const Tour& tour, std::optional<double> optimum) const {
  const auto cost = static_cast<double>(tsplib_length(instance_, tour));
  return tour_picture(instance_.cities, tour,
                      instance_.name + ": " + std::to_string(tour.size()) + " cities, cost " +
                          shortest_text(cost) + gap_text(cost, optimum));
}

Picture TsplibFile::picture(const torch::Tensor& actions, std::optional<double> optimum) const {
  return picture(tour_of(actions), optimum);
}

Picture TsplibFile::picture(const std::filesystem::path& solution,
                            std::optional<double> optimum) const {
  const auto tour = read_tour(solution);
  check(tour, solution);
  return picture(tour, optimum);
}

}  // namespace eie::tsp
