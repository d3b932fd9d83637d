#pragma once

// solve() within a time limit: rounds of policy decodings, each round's best improved
// by the problem's local search, the best per instance kept (eie solve --time-limit).

#include <functional>
#include <string>

#include "src/agent/strategies.h"

namespace eie {

struct AnytimePlan {
  std::string first;      // the first round's decoding as given ("": the plan below)
  std::string improve;    // local search on each round's best ("": none)
  std::string classical;  // a construction heuristic run once, as a round of its own ("": none)
  bool search = false;    // the problem's iterated local search on the best, in the last part
  uint64_t seed = 0;      // the search's draws
};

struct AnytimeResult {
  Solutions best;                        // per instance; cost [count] float64 from Problem::check
  int64_t rounds = 0;                    // rounds run (the classical one included)
  int64_t solutions = 0;                 // solutions decoded, over all instances and rounds
  std::vector<int64_t> best_round;       // per instance, the round its best came from
  std::vector<std::string> round_names;  // per round, what it ran ("multistart:100+aug8 + oropt")
};

// The rounds: `plan.classical` (improved), then `plan.first` or else a probe (multistart
// from 8 first choices), then multistart from every first choice up to 100, then sample:64
// rounds, these with the 8 symmetries where the problem has them, each followed by
// `plan.improve` on its best. The classical round and the probe always run; every later
// round is sized to what the rounds before it say fits in the time left (fewer starts or
// samples, then no symmetries), and none starts when not even one more solution per
// instance would fit. With `plan.search` the rounds take the first half of the time
// and the problem's search() the rest, from each instance's best, as a last round that
// always runs (a descent alone when no time is left).
// `on_round` is told the mean best cost after each round.
[[nodiscard]] AnytimeResult solve_within(Agent& agent, const Instances& instances, double seconds,
                                         const AnytimePlan& plan, int64_t chunk,
                                         torch::Generator& generator,
                                         const std::function<void(double)>& on_round = {});

// The default limit of eie solve for one instance file of n nodes: 0.02 s per node,
// 2 s at least (n = 100), a minute at most.
[[nodiscard]] double default_time_limit(int64_t n);

}  // namespace eie
