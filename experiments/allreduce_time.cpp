// How long the gradient all-reduce of a data-parallel step takes: two ranks (threads
// of this process, each with its own Gloo process group over loopback) average the
// gradients of the default TSP model (Kool et al.'s sizes) ROUNDS times.
// usage: allreduce_time [ROUNDS]   prints: parameters, mean milliseconds per all-reduce
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "src/agent/policy_registry.h"
#include "src/parallel/gloo_collective.h"
#include "src/problem/registry.h"
#include "src/train/data_parallel.h"

int main(int argc, char** argv) {
  using namespace eie;
  const int rounds = argc > 1 ? std::stoi(argv[1]) : 50;
  torch::set_num_threads(1);
  const int port = free_loopback_port();
  int64_t parameters = 0;
  double milliseconds = 0;
  std::vector<std::thread> ranks;
  for (int64_t rank = 0; rank < 2; ++rank) {
    ranks.emplace_back([&, rank] {
      auto agent = make_agent(make_problem("tsp"), NetworkOptions{}, 100);
      for (auto& p : agent->network().parameters()) p.mutable_grad() = torch::randn_like(p);
      const auto job = join_job({"127.0.0.1", port, 2, rank}, std::chrono::seconds(60));
      average_gradients(agent->network(), *job);  // warm-up: connections, buffers
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < rounds; ++r) average_gradients(agent->network(), *job);
      const std::chrono::duration<double, std::milli> spent =
          std::chrono::steady_clock::now() - start;
      if (rank == 0) {
        for (const auto& p : agent->network().parameters()) parameters += p.numel();
        milliseconds = spent.count() / rounds;
      }
    });
  }
  for (auto& t : ranks) t.join();
  std::printf("%lld %.2f\n", static_cast<long long>(parameters), milliseconds);
  return 0;
}
