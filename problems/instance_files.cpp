#include "instance_files.h"

#include <stdexcept>

#include "bpp3d/bpp_file.h"
#include "bpp3d/bpp_instance_file.h"
#include "cvrp/cvrplib_file.h"
#include "tsp/tsplib_file.h"

namespace eie {

std::unique_ptr<InstanceFile> read_instance_file(const std::filesystem::path& path) {
  const auto extension = path.extension().string();
  if (extension == ".tsp") return std::make_unique<tsp::TsplibFile>(tsp::read_tsplib(path));
  if (extension == ".vrp") return std::make_unique<cvrp::CvrplibFile>(cvrp::read_cvrplib(path));
  if (extension == ".bpp")
    return std::make_unique<bpp3d::BppInstanceFile>(bpp3d::read_bpp(path), path.stem().string());
  throw std::invalid_argument(path.string() + ": unknown instance format '" + extension +
                              "' (expected .tsp, .vrp or .bpp; datasets go with --dataset)");
}

}  // namespace eie
