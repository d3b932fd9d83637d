#pragma once

// What `eie solve` does with a batch of instances, for every front end (the CLI and the
// Python module): a policy's decoding, one pass or rounds within a time limit, or a
// classical method; then the optional local search and the problem's independent check.

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "src/agent/anytime.h"
#include "src/agent/attention_setup.h"

namespace eie {

struct SolveSettings {
  std::string method = "am";  // am (the policy), or a classical construction of the problem
  std::string decode;  // the policy's one pass ("": greedy; within a time limit, its first round)
  double time_limit = 0;  // seconds per instance for the policy's rounds; 0: one pass of decode
  std::string improve;    // local search after the pass or method; within a time limit, after
                          // each round ("": the problem's strongest there, none otherwise)
  int64_t batch = 0;      // instances decoded together (0: default_batch)
  uint64_t seed = 1234;   // the sampling generator's seed
};

struct SolveRun {
  torch::Tensor actions;                 // [count, T] int64 on the CPU, the decode loop's form
  torch::Tensor costs;                   // [count] float64, from Problem::check
  std::optional<AnytimeResult> anytime;  // what the time limit ran (improvement included)
  double seconds = 0;                    // solving and checking (not loading)
};

// Told how many more instances are finished, or (count 0) a status line.
using SolveProgress = std::function<void(int64_t count, const std::string& status)>;

// Sets `agent`'s attention for instances of n nodes from `spec` and `bias`; unless
// `window_chosen`, instances above 2,000 nodes of problems with tiles decode in tiles
// (default_tiles). Returns the tile size, 0 for the whole instance.
int64_t set_inference_attention(Agent& agent, const AttentionSpec& spec, const BiasSpec& bias,
                                int64_t n, bool window_chosen,
                                const CalibrationCache& cache = default_calibration_cache());

// Instances per chunk when none is given: 64, or fewer so that every thread decodes a
// chunk of its own; on a GPU, as many as device_chunk() allows.
[[nodiscard]] int64_t default_batch(Agent& agent, const Instances& instances);

// The time limit for one instance file of n nodes when none is given (eie solve FILE):
// default_time_limit(n) for the policy when `settings` name no decoding and no
// improvement, 0 (one pass) otherwise.
[[nodiscard]] double file_time_limit(const SolveSettings& settings, int64_t n);

// Solves `instances` of `problem` (validated) with `agent` (null unless settings.method
// is am, which needs one), on the agent's device; std::invalid_argument for bad settings.
[[nodiscard]] SolveRun solve_instances(Agent* agent, const Problem& problem,
                                       const Instances& instances, const SolveSettings& settings,
                                       const SolveProgress& progress = {});

}  // namespace eie
