#pragma once

// Dataset files: HDF5 with a string attribute `problem` and one dataset per
// instance field ([count, ...], e.g. tsp: coords float32 [count, n, 2]).
// String attributes carry the problem options its problem records (tsp: domain;
// cvrp: protocol).

#include <filesystem>
#include <map>
#include <string>

#include "src/problem/instances.h"
#include "src/problem/registry.h"

namespace eie {

struct Dataset {
  std::string problem;                         // "tsp", ...
  ProblemOptions options;                      // the options its problem records
  Instances instances;                         // the fields
};

[[nodiscard]] Dataset read_dataset(const std::filesystem::path& path);
void write_dataset(const std::filesystem::path& path, const Dataset& dataset);

// What a dataset of `problem` drawn under `options` records: the problem's recorded
// options, each with its fallback when the user gave none.
[[nodiscard]] ProblemOptions recorded_options(const std::string& problem,
                                              const ProblemOptions& options);
// The problem a dataset was made for, under the options it records.
[[nodiscard]] std::shared_ptr<const Problem> problem_of(const Dataset& dataset);

}  // namespace eie
