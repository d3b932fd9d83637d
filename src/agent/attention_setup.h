#pragma once

#include <cstdint>
#include <vector>

#include "src/agent/agent.h"
#include "src/agent/calibration_cache.h"
#include "src/attention/attention_spec.h"
#include "src/attention/bias_policy.h"

namespace eie {

// The attention config `spec` and `bias` describe for `agent` on instances of
// `sizes`: its scale policy, or calibrated scales (measured here, or read from
// their file); a window and a distance bias only where the agent's problem has node
// positions (std::invalid_argument otherwise), entropy biases measured here or read
// from their file (or `cache`). The one place where the CLI's flags and bench rows
// become settings.
[[nodiscard]] AttentionConfig attention_config(
    const AttentionSpec& spec, const BiasSpec& bias, Agent& agent,
    const std::vector<int64_t>& sizes, const CalibrationCache& cache = default_calibration_cache());

// Without a window chosen, instances of `problem` above 2,000 nodes decode in tiles of
// 100 nodes where the problem has tiles: whole-instance attention at 20,000 cities did
// not finish in a minute; tiles of 100 take seconds. Sets `spec` to those tiles and
// returns the tile size, or returns 0 (the whole instance, `spec` unchanged).
int64_t default_tiles(AttentionSpec& spec, const Problem& problem, int64_t n);

}  // namespace eie
