#pragma once

#include <cstdint>
#include <vector>

#include "src/agent/agent.h"
#include "src/attention/attention_spec.h"
#include "src/attention/bias_policy.h"

namespace eie {

// The attention config `spec` and `bias` describe for `agent` on instances of
// `sizes`: its scale policy, or calibrated scales (measured here, or read from
// their file); a window and a distance bias only where the agent's problem has node
// positions (std::invalid_argument otherwise), entropy biases measured here or read
// from their file. The one place where the CLI's flags and bench rows become settings.
[[nodiscard]] AttentionConfig attention_config(const AttentionSpec& spec, const BiasSpec& bias,
                                               Agent& agent, const std::vector<int64_t>& sizes);

}  // namespace eie
