#pragma once

// solve() within a time limit: rounds of policy decodings, each round's best improved
// by the problem's local search, the best per instance kept (eie solve --time-limit).

#include <functional>
#include <string>

#include "src/agent/strategies.h"

namespace eie {

struct AnytimeResult {
  Solutions best;                        // per instance; cost [count] float64 from Problem::check
  int64_t rounds = 0;                    // decode rounds run
  int64_t solutions = 0;                 // solutions decoded, over all instances and rounds
  std::vector<int64_t> best_round;       // per instance, the round its best came from
  std::vector<std::string> round_names;  // per round, what it decoded ("multistart:100+aug8")
};

// The rounds: `first` (default: multistart from every first choice up to 100), then
// sample:64, each with the 8 symmetries where the problem has them; after each, the
// problem's local search `improve` ("" for none) on the round's best. Runs at least one
// round, and no round that the last one's duration says would end past `seconds`.
// `on_round` is told the mean best cost after each round.
[[nodiscard]] AnytimeResult solve_within(Agent& agent, const Instances& instances, double seconds,
                                         const std::string& first, const std::string& improve,
                                         int64_t chunk, torch::Generator& generator,
                                         const std::function<void(double)>& on_round = {});

// The default limit of eie solve for one instance file of n nodes: a few seconds at
// n = 100, growing with n, at most a minute.
[[nodiscard]] double default_time_limit(int64_t n);

}  // namespace eie
