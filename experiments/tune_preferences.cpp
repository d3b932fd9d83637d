// Zero-order tuning of a trained policy's hand-set preferences: every parameter
// named "*preference.weight" (a few scalars added outside the tanh clip, which
// REINFORCE barely moves because sampled decisions are poor while greedy ones are
// good). Coordinate search on the greedy mean cost of a seeded validation set,
// never the instances a table reports on; steps shrink 0.5, 0.25, 0.1 of
// max(|w|, 1). Biases are left alone: a constant added to every logit changes
// nothing. Prints every accepted move and writes the tuned model to OUT.
// usage: tune_preferences PROBLEM MODEL OUT [n=100] [count=512] [seed=77] [threads=2]
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: tune_preferences PROBLEM MODEL OUT [n] [count] [seed] [threads]\n");
    return 2;
  }
  const auto number = [&](int i, int64_t fallback) {
    return argc > i ? std::stoll(argv[i]) : fallback;
  };
  const int64_t n = number(4, 100), count = number(5, 512), seed = number(6, 77);
  const int threads = static_cast<int>(number(7, 2));
  torch::set_num_threads(threads);
  omp_set_num_threads(threads);

  const auto problem = eie::make_problem(argv[1]);
  auto agent = eie::load_agent(argv[2], problem);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed));
  const auto validation = problem->generate(count, n, generator);
  const auto mean_cost = [&] {
    return eie::solve(*agent, validation, eie::Decoding{}, 64, generator)
        .cost.mean()
        .item<double>();
  };

  std::vector<std::pair<std::string, torch::Tensor>> weights;
  const std::string suffix = "preference.weight";
  for (const auto& p : agent->network().named_parameters()) {
    const std::string& name = p.key();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      weights.emplace_back(name, p.value());
    }
  }
  if (weights.empty()) {
    std::fprintf(stderr, "%s: no preference weights to tune\n", argv[2]);
    return 1;
  }

  torch::NoGradGuard no_grad;
  double best = mean_cost();
  std::printf("start: mean cost %.5f on %lld instances of n = %lld (seed %lld)\n", best,
              static_cast<long long>(count), static_cast<long long>(n),
              static_cast<long long>(seed));
  for (const double step : {0.5, 0.25, 0.1}) {
    for (auto& [name, weight] : weights) {
      auto flat = weight.view(-1);
      for (int64_t i = 0; i < flat.numel(); ++i) {
        const float kept = flat[i].item<float>();
        float chosen = kept;
        for (const double sign : {1.0, -1.0}) {
          const auto tried = static_cast<float>(kept + sign * step * std::max(std::abs(kept), 1.0f));
          flat[i] = tried;
          const double cost = mean_cost();
          if (cost < best) {
            best = cost;
            chosen = tried;
          }
        }
        flat[i] = chosen;
        if (chosen != kept) {
          std::printf("%s[%lld]: %g -> %g, mean cost %.5f\n", name.c_str(),
                      static_cast<long long>(i), kept, chosen, best);
          std::fflush(stdout);
        }
      }
    }
  }
  eie::save_model(*agent, argv[3]);
  std::printf("wrote %s: mean cost %.5f\n", argv[3], best);
  return 0;
}
