// Where a training step's time goes (TSP, n = 100, Kool et al.'s model): the greedy
// baseline rollout, the encoder with gradients, the sampled decode (no gradients),
// scoring the sampled tours with gradients, backward, and Adam. The phases are those
// of eie train's step (AttentionAgent::run and the trainer), timed one by one after
// warm-up steps. With STARTS > 0, the multi-start step instead: no baseline rollout,
// each instance decoded from STARTS forced first cities, the encoder run once; on the
// CPU with gradients (no scoring pass), on a GPU without them and scored after. With OPS = ops,
// also the sampled decode and the backward of one more step op by op (LibTorch's profiler: self
// time, calls, and the rate of ops that count their floating-point operations; the profiler's own
// cost inflates ops that are many and small). With BIAS = bias, the network has the shipped models'
// learned distance bias (pointer beta 8, the other betas 0). With DEVICE = cuda, on the GPU (each
// phase ends when the GPU has finished it; the op tables show the host's time). Run:
// build/experiments/rollout_step_profile [STEPS [BATCH [THREADS [STARTS [OPS [BIAS [DEVICE]]]]]]]
#include <omp.h>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policies/attention_model/agent.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "src/util/blas_kernels.h"
#include "src/util/heap.h"

namespace {

namespace profiler = torch::autograd::profiler;

// Self time (microseconds), calls and floating-point operations per op name.
struct OpTotals {
  double self_us = 0;
  int64_t calls = 0;
  uint64_t flops = 0;
};

// The ops of `lists` (each thread's push and pop events, nested) by self time, as the
// table of `phase`.
void print_op_table(const std::string& phase, const profiler::thread_event_lists& lists) {
  std::map<std::string, OpTotals> totals;
  double all_us = 0;
  for (const auto& events : lists) {
    struct Open {
      const profiler::LegacyEvent* push;
      double children_us;
    };
    std::vector<Open> stack;
    for (const auto& e : events) {
      if (e.kind() == profiler::EventKind::PushRange) {
        stack.push_back({&e, 0});
      } else if (e.kind() == profiler::EventKind::PopRange && !stack.empty()) {
        const auto open = stack.back();
        stack.pop_back();
        const double elapsed = open.push->cpuElapsedUs(e);
        auto& t = totals[open.push->name()];
        t.self_us += elapsed - open.children_us;
        t.calls += 1;
        t.flops += const_cast<profiler::LegacyEvent*>(open.push)->flops();
        all_us += elapsed - open.children_us;
        if (!stack.empty()) stack.back().children_us += elapsed;
      }
    }
  }
  std::vector<std::pair<std::string, OpTotals>> rows(totals.begin(), totals.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second.self_us > b.second.self_us; });
  std::printf("\n| op in the %s (self time) | ms | share | calls | GFLOP/s |\n", phase.c_str());
  std::printf("|---|---|---|---|---|\n");
  for (size_t i = 0; i < std::min<size_t>(rows.size(), 12); ++i) {
    const auto& [name, t] = rows[i];
    std::printf("| %s | %.1f | %.0f%% | %lld | %s |\n", name.c_str(), t.self_us / 1e3,
                100 * t.self_us / all_us, static_cast<long long>(t.calls),
                t.flops ? std::to_string(static_cast<int>(t.flops / t.self_us / 1e3)).c_str() : "");
  }
  std::printf("| all ops | %.1f | | | |\n", all_us / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace eie;
  use_native_blas_kernels();  // as the eie binary does
  keep_freed_memory();
  const int steps = argc > 1 ? std::stoi(argv[1]) : 5;
  const int64_t batch = argc > 2 ? std::stoll(argv[2]) : 256;
  const int threads = argc > 3 ? std::stoi(argv[3]) : 2;
  const int64_t starts = argc > 4 ? std::stoll(argv[4]) : 0;
  const bool ops = argc > 5 && std::string(argv[5]) == "ops";
  NetworkOptions network;
  if (argc > 6 && std::string(argv[6]) == "bias") {
    network.encoder.trained_bias.enabled = true;
    network.encoder.trained_bias.pointer_init = 8;
    network.encoder.trained_bias.learn = true;
  }
  const torch::Device device(argc > 7 ? argv[7] : "cpu");
  // As AttentionAgent::run: decode without gradients and score after, but multi-start
  // rows on the CPU, which decode with gradients.
  const bool score_after = starts == 0 || device.is_cuda();
  torch::set_num_threads(threads);
  omp_set_num_threads(threads);
  const int64_t n = 100;
  const auto problem = make_problem("tsp");
  const auto routing = std::dynamic_pointer_cast<const RoutingProblem>(problem);
  auto agent = make_agent(problem, network, n);
  auto& attention = dynamic_cast<policy::AttentionAgent&>(*agent);
  auto& model = attention.model();
  agent->network().to(device);
  const auto baseline = agent->clone();
  baseline->network().eval();
  torch::optim::Adam optimizer(agent->network().parameters(), torch::optim::AdamOptions(1e-4));
  auto generator = at::make_generator<at::CPUGeneratorImpl>(1);

  using Clock = std::chrono::steady_clock;
  std::map<std::string, double> seconds;
  const std::vector<std::string> order = {
      "baseline greedy rollout",
      "encoder (with gradients)",
      score_after ? "sampled decode (no gradients)" : "sampled decode (with gradients)",
      "scoring (with gradients)",
      "backward",
      "Adam step"};
  // Profiles what runs while `guard` lives, into the op table of `phase`.
  using Guard = std::optional<profiler::TLSLegacyProfilerGuard>;
  const auto profile = [](Guard& guard, const std::string& phase) {
    guard.emplace(
        torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU,
                                              /*report_input_shapes=*/true, false, false,
                                              /*with_flops=*/true),
        [phase](const profiler::thread_event_lists& lists) { print_op_table(phase, lists); });
  };
  // Two warm-up steps; with `ops`, one more after the timed ones, profiled.
  for (int step = -2; step < steps + (ops ? 1 : 0); ++step) {
    const auto instances = problem->generate(batch, n, generator).to(device);
    if (device.is_cuda()) torch::cuda::synchronize();
    auto mark = Clock::now();
    const auto phase = [&](const std::string& name) {
      if (device.is_cuda()) torch::cuda::synchronize();
      const auto now = Clock::now();
      if (step >= 0 && step < steps)
        seconds[name] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    };
    agent->network().train();
    torch::Tensor reference;
    if (starts == 0) {
      Guard guard;
      if (step == steps) profile(guard, "greedy rollout");
      reference = solve(*baseline, instances, Decoding{},
                        device_chunk(*baseline, n, chunk_per_thread(batch, batch)), generator)
                      .cost;
    }
    phase(order[0]);
    const auto plan = attention.plan(n);
    const auto embeddings = model->encode(*routing->environment(instances), plan.encoder);
    phase(order[1]);
    // Multi-start: every instance repeated, its first cities forced.
    const int64_t K = std::max<int64_t>(starts, 1);
    const auto decoded = starts > 0 ? instances.repeat_each(K) : instances;
    const auto forced =
        starts > 0 ? problem->start_actions(instances, K).reshape({-1, 1}) : torch::Tensor();
    Trajectory t;
    {
      std::optional<torch::NoGradGuard> no_grad;
      if (score_after) no_grad.emplace();
      const auto decoding = routing->environment(decoded);
      Guard guard;
      if (step == steps) profile(guard, "sampled decode");
      t = decode(*decoding,
                 *model->start(*decoding, score_after ? embeddings.detach() : embeddings, plan, K),
                 Selection::sample, generator, forced);
    }
    phase(order[2]);
    torch::Tensor log_likelihood = t.log_likelihood;
    if (score_after) {
      const auto env = routing->environment(decoded);
      log_likelihood = own_log_likelihood(model->score(*env, embeddings, plan, t.actions, K),
                                          starts > 0 ? 1 : 0);
    }
    if (starts > 0) reference = t.cost.view({-1, K}).mean(1, true).expand({-1, K}).reshape(-1);
    const auto loss = ((t.cost - reference) * log_likelihood).mean();
    phase(order[3]);
    optimizer.zero_grad();
    {
      Guard guard;
      if (step == steps) profile(guard, "backward");
      loss.backward();
    }
    phase(order[4]);
    torch::nn::utils::clip_grad_norm_(agent->network().parameters(), 1.0);
    optimizer.step();
    phase(order[5]);
  }
  double total = 0;
  for (const auto& [name, s] : seconds) total += s;
  std::printf(
      "| phase (TSP n = %lld, batch %lld, %lld starts, %d threads) | seconds per step "
      "| share |\n",
      static_cast<long long>(n), static_cast<long long>(batch), static_cast<long long>(starts),
      threads);
  std::printf("|---|---|---|\n");
  for (const auto& name : order) {
    if ((starts > 0 && name == order[0]) || (!score_after && name == order[3])) {
      continue;  // none in this step
    }
    std::printf("| %s | %.3f | %.0f%% |\n", name.c_str(), seconds[name] / steps,
                100 * seconds[name] / total);
  }
  std::printf("| whole step | %.3f | |\n", total / steps);
  return 0;
}
