// eie gen: a dataset of random instances.
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/io/dataset.h"
#include "src/problem/registry.h"

namespace eie::cli {

int run_gen(int argc, char** argv) {
  cxxopts::Options options("eie gen", "Generate a dataset of random instances (HDF5)");
  options.add_options()("n,size", "instance size (" + problem_sizes() + ")",
                        cxxopts::value<int64_t>()->default_value("100"))(
      "count", "number of instances", cxxopts::value<int64_t>()->default_value("1000"))(
      "out", "dataset file to write", cxxopts::value<std::string>());
  add_problem_flags(options);
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("out")) throw std::invalid_argument("--out is required");
  const auto chosen = problem_options(args);
  Dataset dataset;
  dataset.problem = problem_name(args);
  const auto problem = make_problem(dataset.problem, chosen);
  dataset.options = recorded_options(dataset.problem, chosen);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(common.seed);
  dataset.instances =
      problem->generate(at_least(args, "count", 1), at_least(args, "size", 1), generator);
  write_dataset(args["out"].as<std::string>(), dataset);
  std::printf("wrote %lld %s instances of size %lld to %s\n",
              static_cast<long long>(dataset.instances.count()), dataset.problem.c_str(),
              static_cast<long long>(args["size"].as<int64_t>()),
              args["out"].as<std::string>().c_str());
  return 0;
}

}  // namespace eie::cli
