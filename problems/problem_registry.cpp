#include "problem_registry.h"

#include <stdexcept>

#include "tsp/problem.h"

namespace eie {

std::shared_ptr<const Problem> make_problem(const std::string& name,
                                            const ProblemOptions& options) {
  if (name == "tsp") return std::make_shared<tsp::TspProblem>(tsp::parse_domain(options.domain));
  throw std::invalid_argument("unknown problem '" + name + "' (known: tsp)");
}

}  // namespace eie
