// The TSP in the problem registry (src/problem/registry.h).
#include "problems/tsp/problem.h"
#include "problems/tsp/tsplib.h"
#include "problems/tsp/tsplib_file.h"
#include "src/problem/registry.h"

namespace eie::tsp {
namespace {

ProblemDescriptor descriptor() {
  ProblemDescriptor d;
  d.name = "tsp";
  d.counts = "cities";
  d.options = {{"domain", "coordinates: unit ([0,1]^2, default) or symmetric ([-1,1]^2)",
                /*recorded=*/true, /*fallback=*/"unit", /*sweep_key=*/"", /*sweep_label=*/"",
                /*values=*/{"unit", "symmetric"}},
               distribution_option()};
  d.make = [](const ProblemOptions& options) {
    return std::make_shared<TspProblem>(parse_domain(option(options, "domain")),
                                        parse_point_distribution(option(options, "distribution")));
  };
  d.node_positions = true;
  d.local_search = "oropt";  // 2-opt and Or-opt moves
  d.classical = "nn";
  d.is_default = true;
  d.formats = {{".tsp", [](const std::filesystem::path& path) -> std::unique_ptr<InstanceFile> {
                  return std::make_unique<TsplibFile>(read_tsplib(path));
                }}};
  d.fields = {{"coords", torch::kFloat, 3, "[count, n, 2]"}};
  d.solution = [](const Instances&, const torch::Tensor& actions) -> SolutionTensors {
    return {{"tours", actions}};  // [B, n]: the cities in visiting order
  };
  return d;
}

[[maybe_unused]] const bool registered = register_problem(descriptor());

}  // namespace
}  // namespace eie::tsp
