#include "problem_registry.h"

#include <stdexcept>

#include "cvrp/problem.h"
#include "tsp/problem.h"

namespace eie {

std::shared_ptr<const Problem> make_problem(const std::string& name,
                                            const ProblemOptions& options) {
  if (name == "tsp") return std::make_shared<tsp::TspProblem>(tsp::parse_domain(options.domain));
  if (name == "cvrp") {
    return std::make_shared<cvrp::CvrpProblem>(
        cvrp::Generation{cvrp::parse_protocol(options.protocol), options.capacity});
  }
  throw std::invalid_argument("unknown problem '" + name + "' (known: tsp, cvrp)");
}

}  // namespace eie
