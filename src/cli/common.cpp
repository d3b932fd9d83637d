#include "src/cli/common.h"

#include <omp.h>
#include <torch/version.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "src/agent/attention_setup.h"
#include "src/cli/commands.h"
#include "src/util/blas_kernels.h"
#include "src/util/gnuplot.h"
#include "src/util/parse.h"

namespace eie::cli {

void add_common_flags(cxxopts::Options& options) {
  const auto cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  options.add_options(kCommonGroup)("threads", "threads for LibTorch and OpenMP",
                                    cxxopts::value<int64_t>()->default_value(cores))(
      "seed", "random seed", cxxopts::value<int64_t>()->default_value("1234"))(
      "device", "cpu or cuda (needs a CUDA build of LibTorch)",
      cxxopts::value<std::string>()->default_value("cpu"))(
      "precision",
      "float matrix products and convolutions on a GPU: float32 (the CPU's results) or tf32 "
      "(TensorFloat-32: faster, about 1e-3 relative)",
      cxxopts::value<std::string>()->default_value("float32"))("h,help", "show this help");
}

namespace {

// Text for one Markdown table cell.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// The command's description (what cxxopts prints before "Usage:") and a table of the
// flags of the common group (`common`) or of every other group.
void print_markdown(const cxxopts::Options& options, bool common) {
  if (!common) {
    const auto help = options.help();
    std::printf("%s\n\n", help.substr(0, help.find("\nUsage:")).c_str());
  }
  std::printf("| flag | default | what |\n|---|---|---|\n");
  for (const auto& group : options.groups()) {
    if ((group == kCommonGroup) != common) continue;
    for (const auto& o : options.group_help(group).options) {
      std::string flag;
      if (!o.s.empty()) flag += "-" + o.s + ", ";
      for (const auto& name : o.l)
        flag += (flag.empty() || flag.back() == ' ' ? "--" : ", --") + name;
      if (!o.is_boolean) flag += " " + (o.arg_help.empty() ? std::string("VALUE") : o.arg_help);
      // --threads' default is this machine's core count: the reference says what it means.
      const bool per_machine = !o.l.empty() && o.l.front() == "threads";
      const auto fallback = per_machine                      ? std::string("all cores")
                            : o.has_default && !o.is_boolean ? "`" + o.default_value + "`"
                                                             : std::string();
      std::printf("| `%s` | %s | %s |\n", flag.c_str(), cell(fallback).c_str(),
                  cell(o.desc).c_str());
    }
  }
}

}  // namespace

std::string version_text() {
  const auto blas = blas_kernels();
  return std::string("eie ") + EIE_VERSION + " (commit " + EIE_COMMIT + "), LibTorch " +
         TORCH_VERSION + ", CUDA " +
         (torch::cuda::is_available()
              ? "available (" + std::to_string(torch::cuda::device_count()) + " device(s))"
              : std::string("not available")) +
         (blas.empty() ? "" : ", " + blas);
}

bool parse(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& result,
           Common& common) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--help-markdown" || word == "--help-markdown=common") {
      print_markdown(options, word != "--help-markdown");
      return false;
    }
  }
  // cxxopts wants long flags of two letters or more: accept the documented --n as -n.
  std::vector<std::string> words(argv, argv + argc);
  for (auto& w : words) {
    if (w == "--n") w = "-n";
    if (w.rfind("--n=", 0) == 0) w = "--size=" + w.substr(4);
  }
  std::vector<char*> rewritten;
  for (auto& w : words) rewritten.push_back(w.data());
  result = options.parse(static_cast<int>(rewritten.size()), rewritten.data());
  if (result.count("help")) {
    std::printf("%s\n", options.help().c_str());
    return false;
  }
  if (!result.unmatched().empty()) {
    throw std::invalid_argument("unexpected argument '" + result.unmatched().front() + "'");
  }
  const auto threads = at_least(result, "threads", 1);
  torch::set_num_threads(static_cast<int>(threads));
  omp_set_num_threads(static_cast<int>(threads));
  const auto seed = result["seed"].as<int64_t>();
  if (seed < 0) throw std::invalid_argument("--seed must be >= 0, got " + std::to_string(seed));
  common.seed = static_cast<uint64_t>(seed);
  torch::manual_seed(common.seed);
  const auto device = result["device"].as<std::string>();
  if (device == "cpu") {
    common.device = torch::kCPU;
  } else if (device == "cuda") {
    if (!torch::cuda::is_available()) {
      throw std::invalid_argument("--device cuda: this LibTorch build has no usable CUDA device");
    }
    common.device = torch::kCUDA;
  } else {
    throw std::invalid_argument("--device: expected cpu or cuda, got '" + device + "'");
  }
  const auto precision = result["precision"].as<std::string>();
  if (precision != "float32" && precision != "tf32") {
    throw std::invalid_argument("--precision: expected float32 or tf32, got '" + precision + "'");
  }
  // LibTorch allows TF32 in cuDNN's convolutions by default: off unless asked for.
  at::globalContext().setAllowTF32CuBLAS(precision == "tf32");
  at::globalContext().setAllowTF32CuDNN(precision == "tf32");
  return true;
}

int64_t at_least(const cxxopts::ParseResult& r, const std::string& flag, int64_t min) {
  return flag_at_least(r[flag].as<int64_t>(), flag, min);
}

double positive(const cxxopts::ParseResult& r, const std::string& flag) {
  return flag_positive(r[flag].as<double>(), flag);
}

void add_problem_flags(cxxopts::Options& options) {
  std::string names;
  std::map<std::string, std::string> helps;  // option -> "problem: help; ..."
  for (const auto* problem : problem_descriptors()) {
    names += (names.empty() ? "" : ", ") + problem->name;
    for (const auto& o : problem->options) {
      auto& help = helps[o.name];
      help += (help.empty() ? "" : "; ") + problem->name + ": " + o.help;
    }
  }
  options.add_options("problem")("problem", names,
                                 cxxopts::value<std::string>()->default_value(default_problem()));
  for (const auto& [name, help] : helps) {
    options.add_options("problem")(name, help, cxxopts::value<std::string>()->default_value(""));
  }
}

std::string problem_name(const cxxopts::ParseResult& r) { return r["problem"].as<std::string>(); }

ProblemOptions problem_options(const cxxopts::ParseResult& r) {
  ProblemOptions options;
  for (const auto* problem : problem_descriptors()) {
    for (const auto& o : problem->options) {
      if (r.count(o.name)) options[o.name] = r[o.name].as<std::string>();
    }
  }
  return options;
}

std::string problem_sizes() {
  std::string sizes;
  for (const auto* problem : problem_descriptors()) {
    sizes += (sizes.empty() ? "" : "; ") + problem->name + ": " + problem->counts;
  }
  return sizes;
}

std::filesystem::path shipped_model(const std::string& problem) {
  return std::filesystem::path(EIE_MODELS_DIR) / (problem + "100.h5");
}

void add_plot_size_flag(cxxopts::Options& options) {
  options.add_options()("plot-size", "picture size WxH in pixels (default: per problem)",
                        cxxopts::value<std::string>());
}

PlotSize plot_size(const cxxopts::ParseResult& r) {
  if (!r.count("plot-size")) return {};
  const auto text = r["plot-size"].as<std::string>();
  const auto x = text.find('x');
  if (x == std::string::npos) throw std::invalid_argument("--plot-size: expected WxH, got '" + text + "'");
  const int64_t width = parse_int(text.substr(0, x), "--plot-size width");
  const int64_t height = parse_int(text.substr(x + 1), "--plot-size height");
  constexpr int64_t kLeast = 100, kMost = 10000;  // nothing legible below; memory above
  for (const int64_t side : {width, height}) {
    if (side < kLeast || side > kMost) {
      throw std::invalid_argument("--plot-size: each side must be in " + std::to_string(kLeast) +
                                  ".." + std::to_string(kMost) + ", got '" + text + "'");
    }
  }
  return {static_cast<int>(width), static_cast<int>(height)};
}

void draw(const Picture& picture, const std::filesystem::path& path, PlotSize size) {
  gnuplot_png(path, picture.script, picture.data, size.width ? size.width : picture.width,
              size.height ? size.height : picture.height);
}

void add_attention_flags(cxxopts::Options& options) {
  options.add_options("attention")(
      "scale",
      "attention scale policy NAME[:FILE] (default: as trained), or calibrated[:FILE] "
      "(per-layer entropy calibration on the model; FILE caches the table)",
      cxxopts::value<std::string>())(
      "scale-at", "where the scale applies: encoder or all (encoder and glimpse)",
      cxxopts::value<std::string>()->default_value("all"))(
      "window", "attend to / choose among the K nearest nodes only (0 = all nodes)",
      cxxopts::value<int64_t>()->default_value("0"))(
      "window-at",
      "where the window applies: all (encoder, glimpse, pointer) or a comma list of encoder, "
      "glimpse, pointer, view (each step decoded on a rescaled local view), tiles (spatial "
      "tiles of at most K nodes decoded apart, tours joined)",
      cxxopts::value<std::string>()->default_value("all"))(
      "bias",
      "distance bias beta * d_ij subtracted from attention scores, its beta following n: "
      "none, fixed[:BETA], logn[:BETA] (beta ln n / ln N), sqrtn[:BETA] (beta sqrt(n / N)), "
      "or entropy[:FILE] (per layer, matching the entropy at N; FILE caches the table), then "
      "@PARTS where it applies: all, or a comma list of encoder, glimpse, pointer (e.g. "
      "logn:4@glimpse,pointer). Without BETA: the model's trained betas (default: as trained)",
      cxxopts::value<std::string>())(
      "calibration-cache",
      "folder keeping calibrated scales and entropy biases between calls, per model and "
      "setting (default: $EIE_CACHE_DIR, else $XDG_CACHE_HOME/eie, else ~/.cache/eie), or "
      "none",
      cxxopts::value<std::string>());
}

AttentionSpec attention_spec(const cxxopts::ParseResult& r) {
  AttentionSpec spec;
  spec.scale = r.count("scale") ? r["scale"].as<std::string>() : "";
  spec.scope = parse_scale_scope(r["scale-at"].as<std::string>());
  spec.window = at_least(r, "window", 0);
  spec.parts = r["window-at"].as<std::string>();
  return spec;
}

CalibrationCache calibration_cache(const cxxopts::ParseResult& r) {
  if (!r.count("calibration-cache")) return default_calibration_cache();
  const auto folder = r["calibration-cache"].as<std::string>();
  if (folder.empty()) throw std::invalid_argument("--calibration-cache: empty folder name");
  // none: every table measured afresh, the shipped ones too
  return folder == "none" ? CalibrationCache{} : CalibrationCache{folder, true, shipped_calibrations()};
}

BiasSpec bias_spec(const cxxopts::ParseResult& r) {
  return parse_bias_spec(r.count("bias") ? r["bias"].as<std::string>() : "");
}

AttentionConfig attention_config(const cxxopts::ParseResult& r, Agent& agent,
                                 const std::vector<int64_t>& sizes) {
  return eie::attention_config(attention_spec(r), bias_spec(r), agent, sizes, calibration_cache(r));
}

}  // namespace eie::cli
