#include "src/agent/solve_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "src/problem/registry.h"

namespace eie {

int64_t set_inference_attention(Agent& agent, const AttentionSpec& spec, const BiasSpec& bias,
                                int64_t n, bool window_chosen, const CalibrationCache& cache) {
  auto chosen = spec;
  const int64_t tile = window_chosen ? 0 : default_tiles(chosen, agent.problem(), n);
  agent.set_attention(attention_config(chosen, bias, agent, {n}, cache));
  return tile;
}

int64_t default_batch(Agent& agent, const Instances& instances) {
  return device_chunk(agent, agent.problem().size(instances),
                      chunk_per_thread(instances.count(), 64));
}

double file_time_limit(const SolveSettings& settings, int64_t n) {
  const bool defaults =
      settings.method == "am" && settings.decode.empty() && settings.improve.empty();
  return defaults ? default_time_limit(n) : 0.0;
}

namespace {

// The policy's solutions [count, T] on the CPU, and what a time limit ran.
std::pair<torch::Tensor, std::optional<AnytimeResult>> decode_with_policy(
    Agent& agent, const Instances& given, const SolveSettings& settings,
    const SolveProgress& progress) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(settings.seed);
  const auto instances = given.to(agent.device());
  const auto batch = settings.batch > 0 ? settings.batch : default_batch(agent, given);
  if (settings.time_limit > 0) {
    const auto& descriptor = problem_descriptor(agent.problem().name());
    const AnytimePlan plan{settings.decode,
                           settings.improve.empty() ? descriptor.local_search : settings.improve,
                           descriptor.classical, agent.problem().searches(), settings.seed};
    char status[64];
    auto result = solve_within(agent, instances,
                               settings.time_limit * static_cast<double>(instances.count()), plan,
                               batch, generator, [&](double best) {
                                 if (!progress) return;
                                 std::snprintf(status, sizeof status, "best %.4f", best);
                                 progress(0, status);
                               });
    auto actions = result.best.actions;
    return {actions, std::move(result)};
  }
  const auto decoding = parse_decoding(settings.decode.empty() ? "greedy" : settings.decode);
  auto solutions = solve(agent, instances, decoding, batch, generator, [&](int64_t done) {
    if (progress) progress(done, "");
  });
  return {solutions.actions.to(torch::kCPU), std::nullopt};
}

}  // namespace

SolveRun solve_instances(Agent* agent, const Problem& problem, const Instances& instances,
                         const SolveSettings& settings, const SolveProgress& progress) {
  constexpr double kMostSeconds = 86400;  // a day per instance: more is a typo
  if (!(settings.time_limit >= 0 && settings.time_limit <= kMostSeconds)) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", settings.time_limit);
    throw std::invalid_argument(
        "--time-limit must be 0 to 86400 seconds (a day per instance), got " + std::string(text));
  }
  if (settings.method == "am" && !agent) throw std::logic_error("solve: method am needs a policy");
  if (settings.method != "am" && settings.time_limit > 0) {
    throw std::invalid_argument("--time-limit applies to the policy (--method am) only");
  }
  SolveRun run;
  const auto start = std::chrono::steady_clock::now();
  if (settings.method == "am") {
    std::tie(run.actions, run.anytime) = decode_with_policy(*agent, instances, settings, progress);
  } else {
    run.actions = problem.construct(settings.method, instances);
  }
  if (!settings.improve.empty() && !run.anytime) {
    run.actions = problem.improve(settings.improve, instances, run.actions);
  }
  run.costs = problem.check(instances, run.actions);  // independent of the environments
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace eie
