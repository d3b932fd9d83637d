// Where a training step's time goes (TSP, n = 100, Kool et al.'s model): the greedy
// baseline rollout, the encoder with gradients, the sampled decode (no gradients),
// scoring the sampled tours with gradients, backward, and Adam. The phases are those
// of eie train's step (AttentionAgent::run and the trainer), timed one by one after
// warm-up steps. With STARTS > 0, the multi-start step instead: no baseline rollout,
// each instance decoded from STARTS forced first cities with gradients (no scoring
// pass), the encoder run once.
// Run: build/experiments/rollout_step_profile [STEPS [BATCH [THREADS [STARTS]]]]
#include <omp.h>

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
#include "src/util/heap.h"

int main(int argc, char** argv) {
  using namespace eie;
  keep_freed_memory();  // as the eie binary does
  const int steps = argc > 1 ? std::stoi(argv[1]) : 5;
  const int64_t batch = argc > 2 ? std::stoll(argv[2]) : 256;
  const int threads = argc > 3 ? std::stoi(argv[3]) : 2;
  const int64_t starts = argc > 4 ? std::stoll(argv[4]) : 0;
  torch::set_num_threads(threads);
  omp_set_num_threads(threads);
  const int64_t n = 100;
  const auto problem = make_problem("tsp");
  const auto routing = std::dynamic_pointer_cast<const RoutingProblem>(problem);
  auto agent = make_agent(problem, NetworkOptions{}, n);
  auto& attention = dynamic_cast<policy::AttentionAgent&>(*agent);
  auto& model = attention.model();
  const auto baseline = agent->clone();
  baseline->network().eval();
  torch::optim::Adam optimizer(agent->network().parameters(), torch::optim::AdamOptions(1e-4));
  auto generator = at::make_generator<at::CPUGeneratorImpl>(1);

  using Clock = std::chrono::steady_clock;
  std::map<std::string, double> seconds;
  const std::vector<std::string> order = {
      "baseline greedy rollout",
      "encoder (with gradients)",
      starts == 0 ? "sampled decode (no gradients)" : "sampled decode (with gradients)",
      "scoring (with gradients)",
      "backward",
      "Adam step"};
  for (int step = -2; step < steps; ++step) {  // two warm-up steps
    const auto instances = problem->generate(batch, n, generator);
    auto mark = Clock::now();
    const auto phase = [&](const std::string& name) {
      const auto now = Clock::now();
      if (step >= 0) seconds[name] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    };
    agent->network().train();
    torch::Tensor reference;
    if (starts == 0) {
      reference =
          solve(*baseline, instances, Decoding{}, chunk_per_thread(batch, batch), generator).cost;
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
      if (starts == 0) no_grad.emplace();
      const auto decoding = routing->environment(decoded);
      t = decode(*decoding,
                 *model->start(*decoding, starts == 0 ? embeddings.detach() : embeddings, plan, K),
                 Selection::sample, generator, forced);
    }
    phase(order[2]);
    torch::Tensor log_likelihood = t.log_likelihood;
    if (starts == 0) {
      const auto env = routing->environment(decoded);
      log_likelihood = model->score(*env, embeddings, plan, t.actions, K).sum(1);
    } else {
      reference = t.cost.view({-1, K}).mean(1, true).expand({-1, K}).reshape(-1);
    }
    const auto loss = ((t.cost - reference) * log_likelihood).mean();
    phase(order[3]);
    optimizer.zero_grad();
    loss.backward();
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
    if (starts > 0 && (name == order[0] || name == order[3])) continue;  // none in this step
    std::printf("| %s | %.3f | %.0f%% |\n", name.c_str(), seconds[name] / steps,
                100 * seconds[name] / total);
  }
  std::printf("| whole step | %.3f | |\n", total / steps);
  return 0;
}
