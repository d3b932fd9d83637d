// One conformance grid over every registered problem: each decoding strategy under
// each attention setting (scale policies in both scopes, windows, distance biases and
// tiles where the problem has node positions and tiles), and each value of a problem's
// enumerable options. Every cell checks:
// - feasibility of every decoded solution and its cost recomputed independently
//   (Problem::check against the environment's cost);
// - masks: sampled trajectories choose feasible actions only, with finite
//   log-likelihoods;
// - permutation equivariance: relabelling the nodes relabels the greedy decisions
//   and leaves their probabilities unchanged (float64, so that no near-tie flips).
#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "tests/conformance/attention_grid.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::attention_settings;
using test::has_policy;
using test::kPackingN;
using test::kPackingSize;
using test::kRoutingN;
using test::kRoutingSize;
using test::routing;

struct Cell {
  std::string problem;
  ProblemOptions options;
  std::string decoding;
  std::string attention;  // a name of attention_settings()
  [[nodiscard]] std::string label() const {
    std::string text = problem;
    for (const auto& [name, value] : options) text += "_" + value;
    text += "_" + decoding + "_" + attention;
    for (auto& c : text) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return text;
  }
};

void PrintTo(const Cell& cell, std::ostream* out) { *out << cell.label(); }

const std::vector<std::string> kDecodings = {"greedy", "sample:3", "aug8", "multistart:4"};

std::vector<Cell> cells() {
  std::vector<Cell> out;
  for (const auto* problem : problem_descriptors()) {
    if (!has_policy(problem->name)) continue;
    for (const auto& decoding : kDecodings) {
      for (const auto& [attention, config] : attention_settings(problem->name)) {
        out.push_back({problem->name, {}, decoding, attention});
      }
      // Each value of an enumerable option, under the trained attention.
      for (const auto& o : problem->options) {
        for (const auto& value : o.values) {
          out.push_back({problem->name, {{o.name, value}}, decoding, "as_trained"});
        }
      }
    }
  }
  return out;
}

AttentionConfig setting_of(const Cell& cell) {
  for (const auto& [name, config] : attention_settings(cell.problem)) {
    if (name == cell.attention) return config;
  }
  return {};  // as trained
}

class Conformance : public ::testing::TestWithParam<Cell> {};

TEST_P(Conformance, FeasibleCheckedMaskedAndEquivariant) {
  const auto& cell = GetParam();
  const auto problem = make_problem(cell.problem, cell.options);
  const bool is_routing = routing(cell.problem);
  const int64_t n = is_routing ? kRoutingSize : kPackingSize;
  auto agent = test::grid_agent(problem, is_routing ? kRoutingN : kPackingN);
  const auto config = setting_of(cell);
  agent->set_attention(config);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
  const auto instances = problem->generate(3, n, gen);

  torch::NoGradGuard no_grad;
  const auto solutions = solve(*agent, instances, parse_decoding(cell.decoding), 2, gen);
  const auto checked = problem->check(instances, solutions.actions);  // throws if infeasible
  const auto environment_cost = solutions.cost.to(torch::kDouble);
  EXPECT_LT(((checked - environment_cost).abs() / (checked.abs() + 1)).max().item<double>(), 1e-5);

  // Masks and equivariance are properties of the policy's own steps: greedy cells
  // only (the other strategies decode through them), and not in tiles (a whole-solve mode).
  if (cell.decoding != "greedy" || config.window_parts.tiles) return;
  const auto sampled = agent->rollout(instances, Selection::sample, gen);
  EXPECT_NO_THROW((void)problem->check(instances, sampled.actions));
  EXPECT_TRUE(torch::isfinite(sampled.log_likelihood).all().item<bool>());

  agent->network().eval();
  agent->network().to(torch::kDouble);
  auto wide = instances;
  for (const auto& [name, field] : instances.fields()) {
    if (field.is_floating_point()) wide = wide.with(name, field.to(torch::kDouble));
  }
  const auto perm = torch::randperm(n, gen);
  const auto original = agent->rollout(wide, Selection::greedy, std::nullopt);
  const auto permuted =
      agent->rollout(problem->permute(wide, perm), Selection::greedy, std::nullopt);
  EXPECT_TRUE(torch::equal(problem->unpermute(permuted.actions, perm), original.actions));
  EXPECT_LT((permuted.step_log_probs - original.step_log_probs).abs().max().item<double>(), 1e-8);
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, Conformance, ::testing::ValuesIn(cells()),
                         [](const ::testing::TestParamInfo<Cell>& info) {
                           return info.param.label();
                         });

}  // namespace
}  // namespace eie
