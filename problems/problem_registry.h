#pragma once

#include <memory>
#include <string>

#include "decode/problem.h"

namespace eie {

// Problem settings a user picks on the command line or a dataset file records.
struct ProblemOptions {
  std::string domain = "unit";    // TSP coordinates: unit ([0,1]^2) or symmetric ([-1,1]^2)
  std::string protocol = "kool";  // CVRP demands: kool (U{1..9}) or eie (U(0,1))
  std::string capacity;           // CVRP capacity: "" (protocol default), "kool" or a number
};

// "tsp" or "cvrp"; throws std::invalid_argument listing the known problems.
[[nodiscard]] std::shared_ptr<const Problem> make_problem(const std::string& name,
                                                          const ProblemOptions& options = {});

}  // namespace eie
