// eie import: Kool et al. reference weights -> eie model file.
#include "src/agent/model_file.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/io/h5_file.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"

namespace eie::cli {

int run_import(int argc, char** argv) {
  cxxopts::Options options("eie import",
                           "Turn Kool et al. reference weights (HDF5 export) into an eie model");
  options.add_options()("from", "reference HDF5 file (e.g. ../shared/reference/kool-am/tsp100.h5)",
                        cxxopts::value<std::string>())("out", "eie model file to write",
                                                       cxxopts::value<std::string>());
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("from") || !args.count("out"))
    throw std::invalid_argument("--from and --out are required");
  const std::string from = args["from"].as<std::string>();
  const auto problem = make_problem(h5::Reader(from).string_attribute("problem"));
  auto agent = import_agent(from, problem);
  save_model(*agent, args["out"].as<std::string>());
  std::printf("imported %s model from %s into %s\n", problem->name().c_str(), from.c_str(),
              args["out"].as<std::string>().c_str());
  return 0;
}

}  // namespace eie::cli
