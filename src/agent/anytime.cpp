#include "src/agent/anytime.h"

#include <algorithm>
#include <chrono>

namespace eie {

namespace {
constexpr int64_t kSamplesPerRound = 64;

// Solutions `decoding` decodes per instance of n nodes, with `copies` symmetric copies.
int64_t solutions_per_instance(const Decoding& decoding, int64_t n, int64_t copies) {
  int64_t count = 0;
  for (const auto& s : decoding.strategies) {
    count += s.kind != Decoding::Kind::multistart ? s.samples
             : s.samples > 0                      ? std::min(s.samples, n)
                                                  : default_starts(n);
  }
  return count * (decoding.symmetries ? copies : 1);
}
}  // namespace

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
  // Copies aug8 decodes per instance (1 where the problem has no symmetries).
  const auto copies = static_cast<int64_t>(problem.symmetries(instances.slice(0, 1)).size());
  const std::string with_symmetries = copies == 8 ? "+aug8" : "";
  AnytimeResult result;
  double last_round = 0;
  while (result.rounds == 0 || elapsed() + last_round <= seconds) {
    const auto round_start = elapsed();
    const bool users = result.rounds == 0 && !first.empty();
    std::string name = users                ? first
                       : result.rounds == 0 ? "multistart:" + std::to_string(default_starts(n)) +
                                                  with_symmetries
                                            : "sample:" + std::to_string(kSamplesPerRound) +
                                                  with_symmetries;
    const auto decoding = parse_decoding(name);
    // On the host: the local search and the independent check run there.
    auto decoded = solve(agent, instances, decoding, chunk, generator).actions.to(torch::kCPU);
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
    result.solutions += solutions_per_instance(decoding, n, copies) * instances.count();
    ++result.rounds;
    last_round = elapsed() - round_start;
    if (on_round) on_round(result.best.cost.mean().item<double>());
  }
  return result;
}

}  // namespace eie
