#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <cxxopts.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "src/agent/agent.h"
#include "src/agent/calibration_cache.h"
#include "src/attention/attention_spec.h"
#include "src/attention/bias_policy.h"
#include "src/problem/picture.h"
#include "src/problem/registry.h"

namespace eie::cli {

// Flags every subcommand has: --threads, --seed, --device, --precision, --help.
void add_common_flags(cxxopts::Options& options);

// The group add_common_flags() puts its flags in.
inline const char* const kCommonGroup = "common";

struct Common {
  uint64_t seed;         // every random draw derives from it
  torch::Device device;  // where tensors live
};
// Parses argv; prints help and returns false when --help was given (--help-markdown:
// the command's description and a Markdown table of its flags but the common ones;
// --help-markdown=common: the common flags' table; for `eie help --markdown`). Applies
// --threads to LibTorch and OpenMP and checks the common flags' ranges.
bool parse(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& result,
           Common& common);

// Range-checked flag values: the message names the flag and the value.
[[nodiscard]] int64_t at_least(const cxxopts::ParseResult& r, const std::string& flag, int64_t min);
[[nodiscard]] double positive(const cxxopts::ParseResult& r, const std::string& flag);

// --problem and the flags that say how its instances are drawn (--domain,
// --protocol, --capacity), shared by gen, train and the like.
void add_problem_flags(cxxopts::Options& options);
[[nodiscard]] std::string problem_name(const cxxopts::ParseResult& r);
[[nodiscard]] ProblemOptions problem_options(const cxxopts::ParseResult& r);
// What the size n counts in each problem, for help texts ("tsp: cities; ...").
[[nodiscard]] std::string problem_sizes();

// --scale, --scale-at, --window, --window-at, --bias: how attention is set at inference.
void add_attention_flags(cxxopts::Options& options);
// What those flags say: the scale and window, and the distance bias.
[[nodiscard]] AttentionSpec attention_spec(const cxxopts::ParseResult& r);
[[nodiscard]] BiasSpec bias_spec(const cxxopts::ParseResult& r);
// --calibration-cache: a named folder, none, or the default per-user one.
[[nodiscard]] CalibrationCache calibration_cache(const cxxopts::ParseResult& r);
// The attention config those flags describe for `agent` on instances of `sizes`
// (calibrated scales are measured here, or read from their file).
[[nodiscard]] AttentionConfig attention_config(const cxxopts::ParseResult& r, Agent& agent,
                                               const std::vector<int64_t>& sizes);

// --plot-size WxH: the pixels of a picture (default: the picture's own).
void add_plot_size_flag(cxxopts::Options& options);
struct PlotSize {
  int width = 0, height = 0;  // 0: the picture's own
};
// Throws std::invalid_argument for a malformed or out-of-range size (check it before
// the work the picture is drawn from).
[[nodiscard]] PlotSize plot_size(const cxxopts::ParseResult& r);
// Draws `picture` as a PNG at `path` (atomically; gnuplot's failure is one line).
void draw(const Picture& picture, const std::filesystem::path& path, PlotSize size);

// The shipped model of a problem (results/models/<problem>100.h5).
[[nodiscard]] std::filesystem::path shipped_model(const std::string& problem);

}  // namespace eie::cli
