// Continuity at the training size: for every shipped model and every scale and bias
// policy, the mean greedy cost of 64 random instances at N + 1 follows the one at N as
// the instances themselves grow (the instances at N are those at N + 1 without their
// last node; the growth is what the problem's classical heuristic sees on them), within
// 1%. A policy one node past its training size behaves as at N. A policy that is not the
// trained model at N (logn-sqrt: lambda(N) = ln N / sqrt(d), 4.6 times the trained one,
// greedy tours 34% longer) decodes erratically there: its mean moves by about 1.3% from
// N to N + 1 although its lambda moves by 0.2%; it is held to 3%.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "src/agent/attention_setup.h"
#include "src/agent/model_file.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

constexpr int64_t kInstances = 64;

double mean_greedy_cost(Agent& agent, const Instances& instances, const AttentionConfig& config) {
  torch::NoGradGuard no_grad;
  agent.set_attention(config);
  const auto trajectory = agent.rollout(instances, Selection::greedy, std::nullopt);
  return agent.problem().check(instances, trajectory.actions).mean().item<double>();
}

// Whether `config` is the trained attention at N: lambda(N) = 1/sqrt(d).
bool trained_at_n(const AttentionConfig& config, Agent& agent, int64_t N) {
  if (!config.policy) return true;
  const auto spec = agent.spec();
  const auto d = std::get<int64_t>(spec.at("embed_dim")) / std::get<int64_t>(spec.at("heads"));
  const double lambda = config.policy->lambda({N, d, N});
  return std::abs(lambda * std::sqrt(static_cast<double>(d)) - 1) < 0.2;
}

void expect_continuity_at_the_training_size(const std::string& problem_name,
                                            const std::string& classical) {
  const auto model =
      std::filesystem::path(EIE_SOURCE_DIR) / "results" / "models" / (problem_name + "100.h5");
  const auto problem = make_problem(problem_name);
  auto agent = load_agent(model, problem);
  const auto N = std::get<int64_t>(agent->spec().at("train_n"));
  auto generator = at::make_generator<at::CPUGeneratorImpl>(101);
  const auto larger = problem->generate(kInstances, N + 1, generator);
  const auto at_n = problem->first_nodes(larger, N);
  const auto heuristic_cost = [&](const Instances& instances) {
    return problem->check(instances, problem->heuristic(classical, instances))
        .mean()
        .item<double>();
  };
  const double growth = heuristic_cost(larger) / heuristic_cost(at_n);

  std::vector<std::string> scales{""};
  const auto scale_file =
      std::filesystem::path(EIE_SOURCE_DIR) / "results" / "scales" / "d16-N100-N1600.h5";
  for (const auto& name : scale_policy_names()) {
    scales.push_back(name == "eie" ? name + ":" + scale_file.string() : name);
  }
  scales.emplace_back("calibrated");
  std::vector<std::string> biases{""};
  if (problem_descriptor(problem_name).node_positions) {
    const bool trained = agent->spec().count("distance_bias") > 0;
    for (const std::string name : {"none", "fixed", "logn", "sqrtn"}) {
      biases.push_back(name == "none" || trained ? name : name + ":2");
    }
    biases.emplace_back("entropy");
  }
  const CalibrationCache cache{test::scratch_dir("continuity-cache"), true, {}};
  for (const auto& scale : scales) {
    for (const auto& bias : biases) {
      if (!scale.empty() && !bias.empty()) continue;  // each policy against as trained
      AttentionSpec spec;
      spec.scale = scale;
      const auto config = attention_config(spec, parse_bias_spec(bias), *agent, {N, N + 1}, cache);
      const double ratio =
          mean_greedy_cost(*agent, larger, config) / mean_greedy_cost(*agent, at_n, config);
      EXPECT_NEAR(ratio, growth, trained_at_n(config, *agent, N) ? 0.01 : 0.03)
          << problem_name << " --scale '" << scale << "' --bias '" << bias << "'";
    }
  }
}

TEST(Continuity, TspModelAtNPlusOneBehavesAsAtN) {
  expect_continuity_at_the_training_size("tsp", "nn");
}

TEST(Continuity, CvrpModelAtNPlusOneBehavesAsAtN) {
  expect_continuity_at_the_training_size("cvrp", "savings");
}

TEST(Continuity, PackingModelAtNPlusOneBehavesAsAtN) {
  expect_continuity_at_the_training_size("bpp3d", "heightmap");
}

}  // namespace
}  // namespace eie
