#include "problem_registry.h"

#include <stdexcept>

#include "bpp3d/problem.h"
#include "cvrp/problem.h"
#include "tsp/problem.h"

namespace eie {

std::shared_ptr<const Problem> make_problem(const std::string& name,
                                            const ProblemOptions& options) {
  if (name == "tsp") return std::make_shared<tsp::TspProblem>(tsp::parse_domain(options.domain));
  if (name == "cvrp") {
    return std::make_shared<cvrp::CvrpProblem>(
        cvrp::Generation{cvrp::parse_protocol(options.protocol.empty() ? "kool" : options.protocol),
                         options.capacity});
  }
  if (name == "bpp3d") {
    return std::make_shared<bpp3d::Bpp3dProblem>(
        bpp3d::parse_generation(options.protocol.empty() ? "eie" : options.protocol, options.base));
  }
  throw std::invalid_argument("unknown problem '" + name + "' (known: tsp, cvrp, bpp3d)");
}

std::shared_ptr<const Problem> problem_of(const Dataset& dataset) {
  ProblemOptions options;
  if (dataset.options.count("domain")) options.domain = dataset.options.at("domain");
  if (dataset.options.count("protocol")) options.protocol = dataset.options.at("protocol");
  return make_problem(dataset.problem, options);
}

}  // namespace eie
