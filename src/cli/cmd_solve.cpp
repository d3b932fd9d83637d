// eie solve: an instance file or a dataset, with a policy or a classical method.
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "src/agent/model_file.h"
#include "src/agent/solve_run.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/io/dataset.h"
#include "src/problem/instance_file.h"
#include "src/problem/registry.h"
#include "src/util/progress.h"

namespace eie::cli {

namespace {

struct Input {
  std::shared_ptr<const Problem> problem;  // what the instances are
  Instances instances;                     // scaled for the policies
  std::unique_ptr<InstanceFile> file;      // set for a single instance file
};

Input load_input(const cxxopts::ParseResult& args) {
  const bool has_file = args.count("file") > 0, has_dataset = args.count("dataset") > 0;
  if (has_file == has_dataset)
    throw std::invalid_argument("give either an instance FILE or --dataset D.h5");
  Input input;
  if (has_file) {
    input.file = read_instance_file(args["file"].as<std::string>());
    for (const auto& note : input.file->notes()) std::fprintf(stderr, "note: %s\n", note.c_str());
    input.problem = input.file->problem();
    input.instances = input.file->instances();
    return input;
  }
  const std::string path = args["dataset"].as<std::string>();
  auto dataset = read_dataset(path);
  input.problem = problem_of(dataset);
  try {
    input.problem->validate(dataset.instances);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  input.instances = std::move(dataset.instances);
  return input;
}

std::unique_ptr<Agent> load_policy(const cxxopts::ParseResult& args, const Input& input,
                                   const Common& common) {
  const std::string model = args.count("model") ? args["model"].as<std::string>()
                                                : shipped_model(input.problem->name()).string();
  auto agent = load_agent(model, input.problem);
  agent->network().to(common.device);
  const int64_t n = input.problem->size(input.instances);
  if (const int64_t tile =
          set_inference_attention(*agent, attention_spec(args), bias_spec(args), n,
                                  args.count("window") > 0, calibration_cache(args))) {
    std::fprintf(stderr, "note: n = %lld: decoding in tiles of %lld (--window 0: whole instance)\n",
                 static_cast<long long>(n), static_cast<long long>(tile));
  }
  return agent;
}

// What the flags ask of solve_instances(); without --time-limit, an instance file's
// default (file_time_limit).
SolveSettings solve_settings(const cxxopts::ParseResult& args, const Input& input,
                             const Common& common) {
  SolveSettings settings;
  settings.method = args["method"].as<std::string>();
  settings.decode = args.count("decode") ? args["decode"].as<std::string>() : std::string();
  settings.improve = args.count("improve") ? args["improve"].as<std::string>() : std::string();
  settings.batch = args.count("batch") ? at_least(args, "batch", 1) : 0;
  settings.seed = common.seed;
  if (args.count("time-limit")) {
    settings.time_limit = args["time-limit"].as<double>();
  } else if (input.file) {
    settings.time_limit = file_time_limit(settings, input.problem->size(input.instances));
  }
  return settings;
}

}  // namespace

int run_solve(int argc, char** argv) {
  cxxopts::Options options("eie solve",
                           "Solve an instance file (.tsp, .vrp, .bpp) or a dataset (--dataset). "
                           "Without --window, a policy decodes TSP instances of more than 2,000 "
                           "cities in tiles of 100 (--window 0: the whole instance at once).");
  options.add_options()("file", "instance file", cxxopts::value<std::string>())(
      "dataset", "HDF5 dataset (eie gen)", cxxopts::value<std::string>())(
      "model", "model file (default: the shipped model of the problem)",
      cxxopts::value<std::string>())("method",
                                     "am (the learned policy), or classical: nn, farthest (tsp); "
                                     "savings (cvrp); heightmap (bpp3d)",
                                     cxxopts::value<std::string>()->default_value("am"))(
      "time-limit",
      "seconds per instance for the policy: the problem's classical construction, then rounds "
      "of greedy, multistart and sample:64 (with the 8 symmetries where the problem has them; "
      "each round sized to fit the time left), each round's best improved by the problem's "
      "local search (or --improve), the best kept; where the problem has an iterated local "
      "search (TSP, CVRP), the rounds take the first half of the time and the search, from "
      "the best, the rest. Default for an instance file that names no --decode and no "
      "--improve: 0.02 s per node, 2 to 60 s (2 s at n = 100); 0: one pass of --decode",
      cxxopts::value<double>())(
      "decode",
      "greedy, sample:K (best of K sampled), multistart[:K] (best of K greedy "
      "decodes from forced first actions; default K: every node up to 100), several joined by + "
      "(the best of all), optionally +aug8 (also on the 8 symmetric copies of the unit "
      "square) or +augK (K a multiple of 8 up to 512: on K / 8 views turned by multiples of "
      "90 / (K / 8) degrees and scaled into the square, each with its 8 copies; TSP and CVRP), "
      "or augK alone",
      cxxopts::value<std::string>()->default_value("greedy"))(
      "improve", "local search after any method: 2opt or oropt (tsp), local (cvrp)",
      cxxopts::value<std::string>())("batch",
                                     "instances decoded together (default: 64, or fewer so that "
                                     "every thread decodes a chunk; on a GPU, up to 16,384 at "
                                     "n = 100, fewer as n grows)",
                                     cxxopts::value<int64_t>())(
      "optimum", "known optimal cost: prints the gap", cxxopts::value<double>())(
      "out", "solution file for an instance file (.tour, .sol, placements)",
      cxxopts::value<std::string>())("json", "print one JSON object")(
      "plot", "PNG picture of the solution of an instance file (gnuplot)",
      cxxopts::value<std::string>());
  options.parse_positional({"file"});
  options.positional_help("[FILE]");
  add_plot_size_flag(options);
  add_attention_flags(options);
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  const auto input = load_input(args);
  if (args.count("out") && !input.file)
    throw std::invalid_argument("--out applies to instance files only");
  if (args.count("plot") && !input.file)
    throw std::invalid_argument("--plot applies to instance files only");
  const auto size = plot_size(args);

  const auto settings = solve_settings(args, input, common);
  const auto agent = settings.method == "am" ? load_policy(args, input, common) : nullptr;
  Progress progress("solve", input.instances.count());
  const auto run = solve_instances(
      agent.get(), *input.problem, input.instances, settings,
      [&](int64_t count, const std::string& status) { progress.advance(count, status); });
  const auto& actions = run.actions;
  const auto& costs = run.costs;
  const double seconds = run.seconds;

  nlohmann::json report;
  if (input.file) {
    for (const auto& [name, value] : input.file->measures(actions[0])) report[name] = value;
    if (args.count("optimum")) {
      if (!report.contains("cost"))
        throw std::invalid_argument("--optimum: this problem has no cost");
      const double optimum = positive(args, "optimum");
      report["gap"] = 100.0 * (report["cost"].get<double>() - optimum) / optimum;
    }
    report["seconds"] = seconds;
    if (args.count("out")) input.file->write_solution(args["out"].as<std::string>(), actions[0]);
  } else {
    for (const auto& [name, values] : input.problem->measures(input.instances, costs)) {
      report["mean_" + name] = values.mean().item<double>();
      report["std_" + name] = values.numel() > 1 ? values.std().item<double>() : 0.0;
    }
    report["count"] = costs.numel();
    report["seconds_per_instance"] = seconds / static_cast<double>(costs.numel());
  }
  if (run.anytime) {  // what the time limit did
    report["rounds"] = run.anytime->rounds;
    report["solutions"] = run.anytime->solutions;
    if (input.file) {
      const auto round = run.anytime->best_round.front();
      report["best_from"] = "round " + std::to_string(round + 1) + ": " +
                            run.anytime->round_names[static_cast<size_t>(round)];
    }
  }
  // Drawn after everything is computed and before anything is printed: a picture
  // changes neither, and a failed one fails the command before it reports success.
  if (args.count("plot")) {
    const auto optimum = args.count("optimum") ? std::optional<double>(positive(args, "optimum"))
                                               : std::nullopt;
    draw(input.file->picture(actions[0], optimum), args["plot"].as<std::string>(), size);
  }
  if (args.count("json")) {
    std::printf("%s\n", report.dump().c_str());
    return 0;
  }
  if (input.file) {
    std::printf("%s:", input.file->name().c_str());
    for (const auto& [name, value] : report.items()) {
      if (name == "gap")
        std::printf("  gap %.2f%%", value.get<double>());
      else if (value.is_number() && name != "seconds" && name != "rounds" && name != "solutions")
        // integer costs in full (TSPLIB lengths reach millions)
        std::printf(std::floor(value.get<double>()) == value.get<double>() ? "  %s %.0f" : "  %s %.6g",
                    name.c_str(), value.get<double>());
    }
    std::printf("  time %.2f s\n", seconds);
    if (run.anytime) {
      std::printf("  %lld rounds, %lld solutions, best from %s\n",
                  static_cast<long long>(run.anytime->rounds),
                  static_cast<long long>(run.anytime->solutions),
                  report["best_from"].get<std::string>().c_str());
    }
  } else {
    std::printf("%lld instances:", static_cast<long long>(costs.numel()));
    for (const auto& [name, value] : report.items()) {
      if (name.rfind("mean_", 0) == 0) {
        std::printf("  %s %.4f (std %.4f)", name.substr(5).c_str(), value.get<double>(),
                    report["std_" + name.substr(5)].get<double>());
      }
    }
    std::printf(", %.4f s per instance\n", report["seconds_per_instance"].get<double>());
    if (run.anytime) {
      std::printf("  %lld rounds, %lld solutions\n", static_cast<long long>(run.anytime->rounds),
                  static_cast<long long>(run.anytime->solutions));
    }
  }
  return 0;
}

}  // namespace eie::cli
