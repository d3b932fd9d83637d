#include "src/agent/attention_setup.h"

#include <stdexcept>
#include <string>

#include "src/problem/registry.h"

namespace eie {

AttentionConfig attention_config(const AttentionSpec& spec, const BiasSpec& bias, Agent& agent,
                                 const std::vector<int64_t>& sizes, const CalibrationCache& cache) {
  AttentionConfig config;
  config.window = spec.window;
  config.window_parts = parse_window_parts(spec.parts);
  const auto needs_positions = [&](const std::string& flag) {
    if (problem_descriptor(agent.problem().name()).node_positions) return;
    std::string positioned;
    for (const auto* problem : problem_descriptors()) {
      if (problem->node_positions) positioned += (positioned.empty() ? "" : ", ") + problem->name;
    }
    throw std::invalid_argument(flag + " needs node positions: " + positioned + " only");
  };
  if (config.window > 0) needs_positions("--window");
  if (!bias.as_trained() && bias.name != "none") {
    needs_positions("--bias");
    const bool trained = agent.spec().count("distance_bias") > 0;
    if (!bias.calibrated() && !bias.beta && !trained) {
      throw std::invalid_argument("--bias " + bias.name + " needs a beta (" + bias.name +
                                  ":BETA): the model has no trained distance bias");
    }
  }
  // Tiles are decoded as whole instances of at most `window` nodes (at least 3 each, or
  // the instance itself where it is no larger): calibrated so, without the window, at
  // those sizes (the tables of the same model without a window serve).
  auto whole = config;
  auto calibrated_sizes = sizes;
  if (config.window_parts.tiles) {
    whole.window = 0;
    whole.window_parts = WindowParts{};
    calibrated_sizes.clear();
    for (const auto n : sizes) {
      if (n <= config.window) calibrated_sizes.push_back(n);
    }
    for (int64_t k = 3; k <= config.window; ++k) calibrated_sizes.push_back(k);
  }
  if (is_calibrated(spec.scale)) {
    config.calibrated = whole.calibrated =
        calibrated_scales(agent, whole, spec.scale, calibrated_sizes, cache);
  } else if (!spec.scale.empty()) {
    config.policy = make_scale_policy(spec.scale);
    config.scope = spec.scope;
  }
  // Scales are calibrated without the bias, the bias with the scales it will meet.
  config.bias = whole.bias = bias;
  if (bias.calibrated())
    config.calibrated_bias = entropy_biases(agent, whole, bias.file, calibrated_sizes, cache);
  return config;
}

int64_t default_tiles(AttentionSpec& spec, const Problem& problem, int64_t n) {
  constexpr int64_t kTilesAbove = 2000, kTile = 100;
  if (n <= kTilesAbove || !problem.has_tiles()) return 0;
  spec.window = kTile;
  spec.parts = "tiles";
  return kTile;
}

}  // namespace eie
