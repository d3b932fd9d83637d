#include "src/agent/attention_setup.h"

#include <stdexcept>
#include <string>

#include "src/agent/calibration.h"
#include "src/problem/registry.h"

namespace eie {

AttentionConfig attention_config(const AttentionSpec& spec, Agent& agent,
                                 const std::vector<int64_t>& sizes) {
  AttentionConfig config;
  config.window = spec.window;
  config.window_parts = parse_window_parts(spec.parts);
  if (config.window > 0 && !problem_descriptor(agent.problem().name()).node_positions) {
    std::string positioned;
    for (const auto* problem : problem_descriptors()) {
      if (problem->node_positions) positioned += (positioned.empty() ? "" : ", ") + problem->name;
    }
    throw std::invalid_argument("--window needs node positions: " + positioned + " only");
  }
  if (is_calibrated(spec.scale)) {
    config.calibrated = calibrated_scales(agent, config, spec.scale, sizes);
  } else if (!spec.scale.empty()) {
    config.policy = make_scale_policy(spec.scale);
    config.scope = spec.scope;
  }
  return config;
}

}  // namespace eie
