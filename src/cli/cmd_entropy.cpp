// eie entropy: the attention entropy a model actually has, per layer (and head),
// at several sizes and attention settings: evidence that a method keeps it invariant.
#include <fstream>
#include <map>
#include <sstream>

#include "src/agent/calibration.h"
#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/problem/registry.h"
#include "src/util/atomic_path.h"
#include "src/util/gnuplot.h"
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

// Per layer, "n mean" lines of the mean over heads: what the plot draws.
using Series = std::map<std::string, std::string>;

// CSV rows of one probe: per head, or the mean over heads ("all").
void write_rows(std::ostream& csv, Series& series, int64_t n, const std::string& layer,
                const nn::EntropyProbe& probe, bool per_head) {
  const auto mean = probe.mean(), spread = probe.std();
  series[layer] += std::to_string(n) + ' ' + std::to_string(mean.mean().item<double>()) + '\n';
  if (!per_head) {
    csv << n << ',' << layer << ",all," << mean.mean().item<double>() << ','
        << spread.mean().item<double>() << '\n';
    return;
  }
  for (int64_t h = 0; h < mean.size(0); ++h) {
    csv << n << ',' << layer << ',' << h << ',' << mean[h].item<double>() << ','
        << spread[h].item<double>() << '\n';
  }
}

// Rows of every probe of `probes` at size n; their layer names (suffixed by `tag`).
std::vector<std::string> write_probes(std::ostream& csv, Series& series, int64_t n,
                                      const nn::EntropyProbes& probes, bool per_head,
                                      const std::string& tag) {
  std::vector<std::string> layers;
  for (size_t l = 0; l < probes.encoder.size(); ++l) {
    layers.push_back("encoder" + std::to_string(l + 1) + tag);
    write_rows(csv, series, n, layers.back(), probes.encoder[l], per_head);
  }
  for (const auto& [name, probe] : {std::pair{"glimpse", &probes.glimpse},
                                    std::pair{"pointer", &probes.pointer}}) {
    if (probe->rows() == 0) continue;
    layers.push_back(name + tag);
    write_rows(csv, series, n, layers.back(), *probe, per_head);
  }
  return layers;
}

// The plot of `series`: a colour per layer; the layers of `reference` (the same
// without the bias) dashed in their layer's colour. Returns the script and its data.
std::pair<std::string, std::string> plot_of(const Series& series,
                                            const std::vector<std::string>& layers,
                                            const std::vector<std::string>& reference,
                                            const std::string& title) {
  std::ostringstream s, data;
  s << "set termoption noenhanced\nset logscale x 2\nset grid\nset key outside right\n"
    << "set xlabel 'n'\nset ylabel 'mean attention entropy (nats)'\nset title "
    << gnuplot_quote(title) << "\nplot ";
  int64_t index = 0;  // one data set per layer, in plotting order
  const auto line = [&](const std::string& layer, size_t colour, bool dashed) {
    data << series.at(layer) << "\n\n";
    return "$entropy index " + std::to_string(index++) + " using 1:2 with linespoints linecolor " +
           std::to_string(colour + 1) + (dashed ? " dashtype 3 pointtype 6" : " pointtype 7") +
           " title " + gnuplot_quote(layer);
  };
  for (size_t l = 0; l < layers.size(); ++l) s << (l ? ", " : "") << line(layers[l], l, false);
  for (size_t l = 0; l < reference.size(); ++l) s << ", " << line(reference[l], l, true);
  s << ", log(x) with lines dashtype 2 lc rgb 'gray' title 'ln n (uniform)'\n";
  return {s.str(), data.str()};
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

  std::ostringstream csv;
  csv << "n,layer,head,mean,std\n";
  std::vector<std::string> layers, reference;
  Series series;
  Progress progress("entropy", static_cast<int64_t>(sizes.size()));
  for (const auto n : sizes) {
    const int64_t count =
        args.count("instances") ? at_least(args, "instances", 1) : measurement_count(n);
    layers = write_probes(
        csv, series, n, measure_entropy(*agent, config, n, count, common.seed, true), per_head, "");
    if (compare) {
      reference = write_probes(
          csv, series, n, measure_entropy(*agent, unbiased, n, count, common.seed, true), per_head,
          " (no bias)");
    }
    progress.advance(1);
  }
  AtomicPath file(out);
  file.write(csv.str());
  if (args.count("plot")) {
    const auto [script, data] =
        plot_of(series, layers, reference,
                std::filesystem::path(model).filename().string() +
                    (compare ? ", " + bias_label(config.bias) : ""));
    gnuplot_png(args["plot"].as<std::string>(), script, {{"entropy", data}});
  }
  file.commit();
  std::printf("%s", csv.str().c_str());
  return 0;
}

}  // namespace eie::cli
