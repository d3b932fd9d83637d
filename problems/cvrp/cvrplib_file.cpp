#include "problems/cvrp/cvrplib_file.h"

#include <stdexcept>

#include "problems/cvrp/problem.h"
#include "problems/cvrp/routes_picture.h"
#include "src/util/parse.h"

namespace eie::cvrp {

namespace {
Routes routes_of(const torch::Tensor& actions) {
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  return routes_of_actions(
      std::vector<int64_t>(a.data_ptr<int64_t>(), a.data_ptr<int64_t>() + a.numel()));
}
}  // namespace

CvrplibFile::CvrplibFile(CvrplibInstance instance) : instance_(std::move(instance)) {}

std::shared_ptr<const Problem> CvrplibFile::problem() const {
  return std::make_shared<CvrpProblem>();
}

Instances CvrplibFile::instances() const {
  const auto& d = instance_.data;
  std::vector<Point> points{d.depot};
  points.insert(points.end(), d.customers.begin(), d.customers.end());
  const auto unit = fit_unit_square(points);
  const auto n = static_cast<int64_t>(d.customers.size());
  auto depot =
      torch::tensor({static_cast<float>(unit[0].x), static_cast<float>(unit[0].y)}).view({1, 2});
  auto coords = torch::empty({1, n, 2}, torch::kFloat);
  auto demand = torch::empty({1, n}, torch::kFloat);
  auto* c = coords.data_ptr<float>();
  auto* q = demand.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) {
    c[2 * i] = static_cast<float>(unit[i + 1].x);
    c[2 * i + 1] = static_cast<float>(unit[i + 1].y);
    q[i] = static_cast<float>(d.demands[i]);
  }
  return Instances({{"depot", depot},
                    {"coords", coords},
                    {"demand", demand},
                    {"capacity", torch::full({1}, d.capacity, torch::kFloat)}});
}

std::map<std::string, double> CvrplibFile::measures(const torch::Tensor& actions) const {
  return {{"cost", static_cast<double>(cvrplib_length(instance_.data, routes_of(actions)))}};
}

void CvrplibFile::write_solution(const std::filesystem::path& path,
                                 const torch::Tensor& actions) const {
  const auto routes = routes_of(actions);
  write_sol(path, routes, cvrplib_length(instance_.data, routes));
}

void CvrplibFile::check(const Routes& routes, const std::filesystem::path& path) const {
  check_solution_file(path, "a solution of " + instance_.name,
                      [&] { check_routes(instance_.data, routes); });
}

SolutionTensors CvrplibFile::read_solution(const std::filesystem::path& solution) const {
  const auto sol = read_sol(solution);
  check(sol.routes, solution);
  const auto actions = actions_of_routes(sol.routes);
  const auto steps = static_cast<int64_t>(actions.size());
  return {{"routes", torch::tensor(actions, torch::kLong).view({1, steps})}};
}

void CvrplibFile::write_solution(const std::filesystem::path& path,
                                 const SolutionTensors& solution) const {
  const auto routes = routes_of(single_solution(solution, "routes", 2, torch::kLong));
  check(routes, path);
  write_sol(path, routes, cvrplib_length(instance_.data, routes));
}

Picture CvrplibFile::picture(const Routes& routes, std::optional<double> optimum) const {
  const auto cost = static_cast<double>(cvrplib_length(instance_.data, routes));
  return routes_picture(instance_.data, routes,
                        instance_.name + ": cost " + shortest_text(cost) + gap_text(cost, optimum) +
                            ", " + loads_text(instance_.data, routes));
}

Picture CvrplibFile::picture(const torch::Tensor& actions, std::optional<double> optimum) const {
  return picture(routes_of(actions), optimum);
}

Picture CvrplibFile::picture(const std::filesystem::path& solution,
                             std::optional<double> optimum) const {
  const auto sol = read_sol(solution);
  check(sol.routes, solution);
  return picture(sol.routes, optimum);
}

}  // namespace eie::cvrp
