// The CVRP in the problem registry (src/problem/registry.h).
#include "problems/cvrp/cvrplib.h"
#include "problems/cvrp/cvrplib_file.h"
#include "problems/cvrp/problem.h"
#include "src/problem/registry.h"

namespace eie::cvrp {
namespace {

ProblemDescriptor descriptor() {
  ProblemDescriptor d;
  d.name = "cvrp";
  d.counts = "customers (the depot aside)";
  d.options = {
      {"protocol", "demands: kool (U{1..9}, default) or eie (U(0,1))",
       /*recorded=*/true, /*fallback=*/"kool", /*sweep_key=*/"", /*sweep_label=*/"",
       /*values=*/{"kool", "eie"}},
      {"capacity", "a number, or kool (20/30/40/50 by n); default 50 (kool), 10 (eie)",
       /*recorded=*/false, /*fallback=*/"", /*sweep_key=*/"capacities", /*sweep_label=*/"C=",
       /*values=*/{}},
      distribution_option()};
  d.make = [](const ProblemOptions& options) {
    return std::make_shared<CvrpProblem>(
        Generation{parse_protocol(option(options, "protocol")), option(options, "capacity"),
                   parse_point_distribution(option(options, "distribution"))});
  };
  // The EIE paper's learning rates: 1e-4, and 5e-5 for its capacities 15 and 20.
  d.default_lr = [](const ProblemOptions& options) {
    const auto capacity = option(options, "capacity");
    return option(options, "protocol") == "eie" && (capacity == "15" || capacity == "20") ? 5e-5
                                                                                           : 1e-4;
  };
  d.node_positions = true;
  d.local_search = "local";  // 2-opt in a route, relocate and swap
  d.classical = "savings";
  d.formats = {{".vrp", [](const std::filesystem::path& path) -> std::unique_ptr<InstanceFile> {
                  return std::make_unique<CvrplibFile>(read_cvrplib(path));
                }}};
  d.fields = {{"depot", torch::kFloat, 2, "[count, 2]"},
              {"coords", torch::kFloat, 3, "[count, n, 2]"},
              {"demand", torch::kFloat, 2, "[count, n]"},
              {"capacity", torch::kFloat, 1, "[count]"}};
  d.solution = [](const Instances&, const torch::Tensor& actions) -> SolutionTensors {
    return {{"routes", actions}};  // [B, T]: customers 1..n, 0 = the depot between routes
  };
  return d;
}

[[maybe_unused]] const bool registered = register_problem(descriptor());

}  // namespace
}  // namespace eie::cvrp
