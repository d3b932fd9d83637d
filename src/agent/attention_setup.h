#pragma once

#include <cstdint>
#include <vector>

#include "src/agent/agent.h"
#include "src/attention/attention_spec.h"

namespace eie {

// The attention config `spec` describes for `agent` on instances of `sizes`: its
// scale policy, or calibrated scales (measured here, or read from their file); a
// window only where the agent's problem has node positions (std::invalid_argument
// otherwise). The one place where the CLI's flags and bench rows become settings.
[[nodiscard]] AttentionConfig attention_config(const AttentionSpec& spec, Agent& agent,
                                               const std::vector<int64_t>& sizes);

}  // namespace eie
