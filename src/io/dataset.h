#pragma once

// Dataset files: HDF5 with a string attribute `problem` and one dataset per
// instance field ([count, ...], e.g. tsp: coords float32 [count, n, 2]).
// Optional string attributes carry problem options (tsp: domain; cvrp: protocol).

#include <filesystem>
#include <map>
#include <string>

#include "decode/instances.h"

namespace eie {

struct Dataset {
  std::string problem;                         // "tsp", ...
  std::map<std::string, std::string> options;  // string attributes besides `problem`
  Instances instances;                         // the fields
};

[[nodiscard]] Dataset read_dataset(const std::filesystem::path& path);
void write_dataset(const std::filesystem::path& path, const Dataset& dataset);

}  // namespace eie
