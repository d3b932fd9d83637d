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
  if (is_calibrated(spec.scale)) {
    config.calibrated = calibrated_scales(agent, config, spec.scale, sizes, cache);
  } else if (!spec.scale.empty()) {
    config.policy = make_scale_policy(spec.scale);
    config.scope = spec.scope;
  }
  // Scales are calibrated without the bias, the bias with the scales it will meet.
  config.bias = bias;
  if (bias.calibrated())
    config.calibrated_bias = entropy_biases(agent, config, bias.file, sizes, cache);
  return config;
}

int64_t default_tiles(AttentionConfig& config, const Problem& problem, int64_t n) {
  constexpr int64_t kTilesAbove = 2000, kTile = 100;
  if (n <= kTilesAbove || !problem.has_tiles()) return 0;
  config.window = kTile;
  config.window_parts = WindowParts{false, false, false, false, true};
  return kTile;
}

}  // namespace eie
