// eie entropy: the attention entropy a model actually has, per layer (and head),
// at several sizes and attention settings: evidence that a method keeps it invariant.
#include <sstream>

#include "src/agent/calibration.h"
#include "src/agent/entropy_report.h"
#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/problem/registry.h"
#include "src/util/atomic_path.h"
#include "src/util/parse.h"
#include "src/util/progress.h"

namespace eie::cli {

namespace {

std::vector<int64_t> parse_sizes(const std::string& text) {
  std::vector<int64_t> sizes;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    sizes.push_back(parse_int(item, "--sizes"));
    if (sizes.back() < 3) throw std::invalid_argument("--sizes: every size must be at least 3");
  }
  if (sizes.empty()) throw std::invalid_argument("--sizes: give at least one size");
  return sizes;
}

}  // namespace

int run_entropy(int argc, char** argv) {
  cxxopts::Options options("eie entropy",
                           "Measured attention entropy per layer of a model at several sizes");
  options.add_options()("model", "model file (default: the shipped model of --problem)",
                        cxxopts::value<std::string>())(
      "sizes", "comma-separated sizes n",
      cxxopts::value<std::string>()->default_value("100,200,400,800,1600"))(
      "instances", "fresh instances per size (default: about 3,200 attention rows per layer)",
      cxxopts::value<int64_t>())("per-head", "one row per head instead of the mean over heads")(
      "out",
      "CSV file: n,layer,head,mean,std (with --bias, also each layer without it: "
      "'LAYER (no bias)')",
      cxxopts::value<std::string>())(
      "plot", "PNG plot of the per-layer means (gnuplot)", cxxopts::value<std::string>());
  add_problem_flags(options);
  add_attention_flags(options);
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("out")) throw std::invalid_argument("--out is required");
  const auto sizes = parse_sizes(args["sizes"].as<std::string>());
  const bool per_head = args.count("per-head") > 0;
  const std::filesystem::path out = args["out"].as<std::string>();

  const auto problem = make_problem(problem_name(args), problem_options(args));
  const std::string model = args.count("model") ? args["model"].as<std::string>()
                                                : shipped_model(problem->name()).string();
  auto agent = load_agent(model, problem);
  agent->network().to(common.device);
  const auto config = attention_config(args, *agent, sizes);
  // A bias's effect: the same setting without it, beside.
  const bool compare = !config.bias.as_trained() && config.bias.name != "none";
  auto unbiased = config;
  unbiased.bias = parse_bias_spec("none");

  EntropyReport report(per_head);
  Progress progress("entropy", static_cast<int64_t>(sizes.size()));
  for (const auto n : sizes) {
    const int64_t count =
        args.count("instances") ? at_least(args, "instances", 1) : measurement_count(n);
    report.add(n, measure_entropy(*agent, config, n, count, common.seed, true));
    if (compare) {
      report.add(n, measure_entropy(*agent, unbiased, n, count, common.seed, true), " (no bias)");
    }
    progress.advance(1);
  }
  AtomicPath file(out);
  file.write(report.csv());
  if (args.count("plot")) {
    report.plot(args["plot"].as<std::string>(),
                std::filesystem::path(model).filename().string() +
                    (compare ? ", " + bias_label(config.bias) : ""));
  }
  file.commit();
  std::printf("%s", report.csv().c_str());
  return 0;
}

}  // namespace eie::cli
