#include "src/agent/anytime.h"

#include <algorithm>
#include <chrono>

namespace eie {

namespace {
constexpr int64_t kSamplesPerRound = 64;
}

double default_time_limit(int64_t n) {
  return std::clamp(0.03 * static_cast<double>(n), 2.0, 60.0);
}

AnytimeResult solve_within(Agent& agent, const Instances& instances, double seconds,
                           const std::string& first, const std::string& improve, int64_t chunk,
                           torch::Generator& generator,
                           const std::function<void(double)>& on_round) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const auto& problem = agent.problem();
  const int64_t n = problem.size(instances);
  const bool symmetric = problem.symmetries(instances.slice(0, 1)).size() == 8;
  const std::string with_symmetries = symmetric ? "+aug8" : "";
  const int64_t copies = symmetric ? 8 : 1;
  AnytimeResult result;
  double last_round = 0;
  while (result.rounds == 0 || elapsed() + last_round <= seconds) {
    const auto round_start = elapsed();
    std::string name;
    int64_t per_instance = 0;
    if (result.rounds == 0 && !first.empty()) {
      name = first;
      per_instance = 1;  // at least: a user's decoding may be any union
    } else if (result.rounds == 0) {
      const int64_t starts = default_starts(n);
      name = "multistart:" + std::to_string(starts) + with_symmetries;
      per_instance = starts * copies;
    } else {
      name = "sample:" + std::to_string(kSamplesPerRound) + with_symmetries;
      per_instance = kSamplesPerRound * copies;
    }
    // On the host: the local search and the independent check run there.
    auto decoded =
        solve(agent, instances, parse_decoding(name), chunk, generator).actions.to(torch::kCPU);
    if (!improve.empty()) {
      decoded = problem.improve(improve, instances, decoded);
      name += " + " + improve;
    }
    const auto costs = problem.check(instances, decoded).to(torch::kDouble);
    if (!result.best.actions.defined()) {
      result.best = {decoded, costs};
      result.best_round.assign(static_cast<size_t>(instances.count()), 0);
    } else {
      const auto better = costs < result.best.cost;
      const int64_t width = std::max(decoded.size(1), result.best.actions.size(1));
      result.best.actions = torch::where(better.unsqueeze(1), pad_columns(decoded, width),
                                         pad_columns(result.best.actions, width));
      result.best.cost = torch::where(better, costs, result.best.cost);
      const auto flags = better.contiguous();
      for (int64_t i = 0; i < flags.numel(); ++i) {
        if (flags.data_ptr<bool>()[i]) result.best_round[static_cast<size_t>(i)] = result.rounds;
      }
    }
    result.round_names.push_back(name);
    result.solutions += per_instance * instances.count();
    ++result.rounds;
    last_round = elapsed() - round_start;
    if (on_round) on_round(result.best.cost.mean().item<double>());
  }
  return result;
}

}  // namespace eie
