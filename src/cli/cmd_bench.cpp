// eie bench: length-extrapolation tables from a TOML description.
#include "src/bench/bench_picture.h"
#include "src/bench/bench_runner.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/util/progress.h"

namespace eie::cli {

int run_bench(int argc, char** argv) {
  cxxopts::Options options("eie bench",
                           "Run a benchmark described in TOML; writes <out>/<name>.md and .csv");
  options.add_options()("config", "benchmark file (experiments/*.toml)",
                        cxxopts::value<std::string>())(
      "out", "directory of the tables",
      cxxopts::value<std::string>()->default_value("results/tables"));
  options.parse_positional({"config"});
  options.positional_help("CONFIG.toml");
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("config"))
    throw std::invalid_argument("a benchmark file CONFIG.toml is required");
  const auto config = read_bench_config(args["config"].as<std::string>());
  // Checked before the (long) run, not when its tables are written.
  const std::filesystem::path out = args["out"].as<std::string>();
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error || !std::filesystem::is_directory(out)) {
    throw std::invalid_argument("--out " + out.string() + ": not a directory" +
                                (error ? " (" + error.message() + ")" : ""));
  }
  std::string command = "eie bench " + args["config"].as<std::string>();
  if (args["seed"].as<int64_t>() != 1234) command += " --seed " + std::to_string(common.seed);

  Progress bar("bench " + config.name, bench_workload(config));
  const auto result = run_bench(
      config, common.seed == 1234 ? 0 : common.seed, [&](int64_t done) { bar.advance(done); },
      common.device);
  write_bench_tables(config, result, command, out);
  // The tables are the result: a picture that cannot be drawn is a warning.
  try {
    draw(bench_picture(config, result), out / (config.name + ".png"), {});
    std::printf("wrote %s/%s.md, .csv and .png\n", out.c_str(), config.name.c_str());
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "eie bench: warning: no picture: %s\n", e.what());
    std::printf("wrote %s/%s.md and .csv\n", out.c_str(), config.name.c_str());
  }
  return 0;
}

}  // namespace eie::cli
