#pragma once

#include <memory>
#include <string>

#include "decode/problem.h"
#include "io/dataset.h"

namespace eie {

// Problem settings a user picks on the command line or a dataset file records.
struct ProblemOptions {
  std::string domain = "unit";  // TSP coordinates: unit ([0,1]^2) or symmetric ([-1,1]^2)
  std::string protocol;         // "" = default; cvrp: kool or eie; bpp3d: eie or attend2pack
  std::string capacity;         // CVRP capacity: "" (protocol default), "kool" or a number
  std::string base;             // bpp3d bin base "LxW": "" (protocol default, 120x100 for eie)
};

// "tsp", "cvrp" or "bpp3d"; throws std::invalid_argument listing the known problems.
[[nodiscard]] std::shared_ptr<const Problem> make_problem(const std::string& name,
                                                          const ProblemOptions& options = {});

// The problem a dataset file was made for, with the options the file records.
[[nodiscard]] std::shared_ptr<const Problem> problem_of(const Dataset& dataset);

}  // namespace eie
