// eie plot: a picture of a solution file (eie's or another solver's, in the
// problem's standard format) on its instance file.
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/problem/instance_file.h"
#include "src/problem/registry.h"

namespace eie::cli {

int run_plot(int argc, char** argv) {
  cxxopts::Options options("eie plot",
                           "Draw a solution (.tour, .sol, placements) on its instance file "
                           "(.tsp, .vrp, .bpp) as a PNG (gnuplot)");
  options.add_options()("instance", "instance file", cxxopts::value<std::string>())(
      "solution", "solution file", cxxopts::value<std::string>())(
      "out", "PNG file to write", cxxopts::value<std::string>())(
      "optimum", "known optimal cost (or height): the title gives the gap",
      cxxopts::value<double>());
  options.parse_positional({"instance", "solution"});
  options.positional_help("INSTANCE SOLUTION");
  add_plot_size_flag(options);
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("instance") || !args.count("solution")) {
    throw std::invalid_argument("give an INSTANCE file and its SOLUTION file");
  }
  if (!args.count("out")) throw std::invalid_argument("--out is required");
  const auto size = plot_size(args);
  const auto instance = read_instance_file(args["instance"].as<std::string>());
  const auto optimum =
      args.count("optimum") ? std::optional<double>(positive(args, "optimum")) : std::nullopt;
  draw(instance->picture(std::filesystem::path(args["solution"].as<std::string>()), optimum),
       args["out"].as<std::string>(), size);
  std::printf("%s\n", args["out"].as<std::string>().c_str());
  return 0;
}

}  // namespace eie::cli
