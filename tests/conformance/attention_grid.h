#pragma once

// The attention settings every registered problem is decoded under by the conformance
// grid (and, on a GPU, compared with the CPU): scale policies in both scopes, windows,
// distance biases and tiles where the problem has node positions and tiles.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/agent/policy_registry.h"
#include "src/attention/bias_policy.h"
#include "src/problem/registry.h"
#include "tests/scale_settings.h"
#include "tests/test_support.h"

namespace eie::test {

// Whether a registered policy family decodes the problem (a problem may come with
// classical methods only, as the toy problem of tests/toy does).
inline bool has_policy(const std::string& problem) {
  try {
    (void)policy_for(*make_problem(problem));
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// Small networks (head size 16, as the shipped scale file assumes), trained at
// N = 100 for routing; packing at N = 20 on few boxes, without the scale file's policies.
constexpr int64_t kRoutingN = 100, kRoutingSize = 110, kPackingN = 20, kPackingSize = 12;

inline bool routing(const std::string& problem) {
  return problem_descriptor(problem).node_positions;
}

// The grid's network for `problem` trained at `train_n` (seeded: the same on every
// call), its batch norm's statistics made non-trivial.
inline std::unique_ptr<Agent> grid_agent(const std::shared_ptr<const Problem>& problem,
                                         int64_t train_n) {
  torch::manual_seed(7);
  auto agent = make_agent(problem, small_network(64, 4, 64, 2), train_n);
  for (auto& b : agent->network().named_buffers()) {
    if (b.key().find("running_mean") != std::string::npos) b.value().normal_(0, 0.2);
    if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 1.5);
  }
  return agent;
}

// (name, setting) of every attention setting that applies to `problem`.
inline std::vector<std::pair<std::string, AttentionConfig>> attention_settings(
    const std::string& problem) {
  std::vector<std::pair<std::string, AttentionConfig>> out;
  for (const auto& [name, config] : test::every_scale_setting()) {
    if (!routing(problem) && name.rfind("eie", 0) == 0) continue;  // the file assumes N = 100
    out.emplace_back(name + (config.scope == ScaleScope::all ? "_all" : "_encoder"), config);
  }
  if (routing(problem)) {
    AttentionConfig window;
    window.window = 12;
    out.emplace_back("window12", window);
    // Distance biases (the untrained network has no trained betas: BETA given), alone,
    // with a scale policy and with a window; entropy's betas from a table.
    for (const auto* name : {"fixed", "logn", "sqrtn"}) {
      AttentionConfig biased;
      biased.bias = BiasSpec{name, 3.0, ""};
      out.emplace_back(std::string("bias_") + name, biased);
    }
    AttentionConfig pointer;
    pointer.bias = parse_bias_spec("sqrtn:3@glimpse,pointer");
    out.emplace_back("bias_sqrtn_decoder", pointer);
    AttentionConfig entropy;
    entropy.bias = BiasSpec{"entropy", std::nullopt, ""};
    entropy.calibrated_bias = std::make_shared<const LayerTable>(
        LayerTable{{kRoutingSize, LayerValues{{2.0, 4.0}, 3.0, 6.0}}});
    out.emplace_back("bias_entropy", entropy);
    AttentionConfig scaled_window = window;
    scaled_window.policy = make_scale_policy("infoscale");
    scaled_window.bias = BiasSpec{"logn", 3.0, ""};
    out.emplace_back("bias_logn_infoscale_window12", scaled_window);
    if (make_problem(problem)->has_tiles()) {
      AttentionConfig tiles;
      tiles.window = 40;
      tiles.window_parts = WindowParts{false, false, false, false, true};
      out.emplace_back("tiles40", tiles);
    }
  }
  return out;
}

}  // namespace eie::test
