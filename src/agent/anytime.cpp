#include "src/agent/anytime.h"

#include <algorithm>
#include <chrono>

namespace eie {

namespace {
constexpr int64_t kSamplesPerRound = 64;
constexpr int64_t kProbe = 8;  // the first round's starts
// The share of the time the iterated search gets, where the plan has one: policy
// rounds find good starts quickly, then kicks improve the best more than more rounds do.
constexpr double kSearchShare = 0.5;

// Solutions `decoding` decodes per instance of n nodes, with `copies` symmetric copies
// (of each rotated view).
int64_t solutions_per_instance(const Decoding& decoding, int64_t n, int64_t copies) {
  int64_t count = 0;
  for (const auto& s : decoding.strategies) {
    count += s.kind != Decoding::Kind::multistart ? s.samples
             : s.samples > 0                      ? std::min(s.samples, n)
                                                  : default_starts(n);
  }
  return count * (decoding.symmetries ? copies * decoding.rotations : 1);
}

// A round's decoding time as the rounds so far measured it: a round decodes one batch
// per symmetric copy, and a batch of k solutions per instance takes fixed + pace * k.
struct RoundCost {
  double fixed = 0, pace = 0;

  // The most solutions per instance a batch may hold for `batches` of them to end
  // within `seconds` (negative when none fits).
  [[nodiscard]] double most(double seconds, int64_t batches) const {
    return (seconds / static_cast<double>(batches) - fixed) / pace;
  }
};

// The cost line through the probe's batch (`probe_k` solutions in `probe_seconds`) and the
// largest batch measured (k solutions in `seconds`); through the origin and the probe
// while no larger batch is known (or the two disagree), which errs on the long side.
RoundCost fitted_cost(int64_t probe_k, double probe_seconds, int64_t k, double seconds) {
  const double slope = (seconds - probe_seconds) / static_cast<double>(k - probe_k);
  if (k > probe_k && slope > 0 && probe_seconds - slope * static_cast<double>(probe_k) > 0) {
    return {probe_seconds - slope * static_cast<double>(probe_k), slope};
  }
  return {0, std::max(probe_seconds, 1e-9) / static_cast<double>(probe_k)};
}

// The policy's round `index` after the probe (1: multistart, then sampling) for instances
// of n nodes, cut to what `cost` says ends within `seconds`: fewer starts or samples,
// then no symmetries; "" when not one solution fits.
std::string sized_round(int64_t index, int64_t n, int64_t copies, const RoundCost& cost,
                        double seconds) {
  const std::string kind = index == 1 ? "multistart:" : "sample:";
  const int64_t planned = index == 1 ? default_starts(n) : kSamplesPerRound;
  const auto fit = [&](int64_t batches) {
    const double most = cost.most(seconds, batches);
    return most >= static_cast<double>(planned) ? planned : static_cast<int64_t>(most);
  };
  if (copies > 1 && fit(copies) >= 1) return kind + std::to_string(fit(copies)) + "+aug8";
  if (fit(1) >= 1) return kind + std::to_string(fit(1));
  return "";
}
}  // namespace

double default_time_limit(int64_t n) {
  return std::clamp(0.02 * static_cast<double>(n), 2.0, 60.0);
}

AnytimeResult solve_within(Agent& agent, const Instances& instances, double seconds,
                           const AnytimePlan& plan, int64_t chunk, torch::Generator& generator,
                           const std::function<void(double)>& on_round) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const auto& problem = agent.problem();
  const int64_t n = problem.size(instances);
  // Copies aug8 decodes per instance (1 where the problem has no symmetries).
  const int64_t copies = symmetric_copies(problem, instances);
  AnytimeResult result;

  // Improves `actions` (on the host, where the local search and the check run) unless
  // `improved` already, and keeps each instance's better solution; returns the seconds
  // the local search took.
  const auto keep = [&](torch::Tensor actions, std::string name, int64_t solutions,
                        bool improved = false) {
    const auto improve_start = elapsed();
    if (!plan.improve.empty() && !improved) {
      actions = problem.improve(plan.improve, instances, actions);
      name += " + " + plan.improve;
    }
    const auto costs = problem.check(instances, actions).to(torch::kDouble);
    const double improving = elapsed() - improve_start;
    if (!result.best.actions.defined()) {
      result.best = {actions, costs};
      result.best_round.assign(static_cast<size_t>(instances.count()), 0);
    } else {
      const auto better = costs < result.best.cost;
      const int64_t width = std::max(actions.size(1), result.best.actions.size(1));
      result.best.actions = torch::where(better.unsqueeze(1), pad_columns(actions, width),
                                         pad_columns(result.best.actions, width));
      result.best.cost = torch::where(better, costs, result.best.cost);
      const auto flags = better.contiguous();
      for (int64_t i = 0; i < flags.numel(); ++i) {
        if (flags.data_ptr<bool>()[i]) result.best_round[static_cast<size_t>(i)] = result.rounds;
      }
    }
    result.round_names.push_back(name);
    result.solutions += solutions * instances.count();
    ++result.rounds;
    if (on_round) on_round(result.best.cost.mean().item<double>());
    return improving;
  };

  if (!plan.classical.empty()) {
    (void)keep(problem.construct(plan.classical, instances), plan.classical, 1);
  }
  // The probe: a small round that starts the cost line (a batch of kProbe solutions per
  // instance), then each round on the line through it and the largest batch so far.
  std::string name = !plan.first.empty() ? plan.first : "multistart:" + std::to_string(kProbe);
  int64_t probe_k = 0, largest_k = 0;
  double probe_seconds = 0, largest_seconds = 0;
  const double rounds_seconds = plan.search ? seconds * (1 - kSearchShare) : seconds;
  for (int64_t index = 1;; ++index) {
    const auto decoding = parse_decoding(name);
    const int64_t solutions = solutions_per_instance(decoding, n, copies);
    const int64_t batches = decoding.symmetries ? copies * decoding.rotations : 1;
    const auto decode_start = elapsed();
    const auto decoded = solve(agent, instances, decoding, chunk, generator).actions.to(torch::kCPU);
    const double per_batch = (elapsed() - decode_start) / static_cast<double>(batches);
    const int64_t k = solutions / batches;
    if (index == 1) probe_k = k, probe_seconds = per_batch;
    if (k >= largest_k) largest_k = k, largest_seconds = per_batch;
    const double improving = keep(decoded, name, solutions);
    name = sized_round(index, n, copies,
                       fitted_cost(probe_k, probe_seconds, largest_k, largest_seconds),
                       rounds_seconds - elapsed() - improving);
    if (name.empty()) break;
  }
  if (plan.search) {  // always, as the probe: with no time left, one descent
    const auto searched = problem.search(instances, result.best.actions.to(torch::kCPU),
                                         std::max(0.0, seconds - elapsed()), plan.seed);
    (void)keep(searched, "search", 0, true);
  }
  return result;
}

}  // namespace eie
