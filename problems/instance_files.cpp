#include "instance_files.h"

#include <stdexcept>

#include "tsp/tsplib_file.h"

namespace eie {

std::unique_ptr<InstanceFile> read_instance_file(const std::filesystem::path& path) {
  const auto extension = path.extension().string();
  if (extension == ".tsp") return std::make_unique<tsp::TsplibFile>(tsp::read_tsplib(path));
  throw std::invalid_argument(path.string() + ": unknown instance format '" + extension +
                              "' (expected .tsp; datasets go with --dataset)");
}

}  // namespace eie
