// Every decoding strategy yields feasible tours whose environment cost matches
// an independent recomputation; masked actions get exactly zero probability.
#include <gtest/gtest.h>
#include <torch/csrc/autograd/profiler_legacy.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include "policies/attend2pack/agent.h"
#include "policies/attention_model/agent.h"
#include "problems/bpp3d/problem.h"
#include "problems/tsp/environment.h"
#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/decode/decode_loop.h"
#include "src/problem/registry.h"
#include "tests/conformance/attention_grid.h"
#include "tests/scale_settings.h"
#include "tests/test_support.h"

namespace eie {
namespace {

// `decoding` on one thread, then on two, from the same seed; one thread again after.
std::array<Solutions, 2> on_one_and_two_threads(Agent& agent, const Instances& instances,
                                                const std::string& decoding, int64_t chunk) {
  std::array<Solutions, 2> runs;
  for (const int threads : {1, 2}) {
    torch::set_num_threads(threads);
    auto g = at::make_generator<at::CPUGeneratorImpl>(4);
    runs[threads - 1] = solve(agent, instances, parse_decoding(decoding), chunk, g);
  }
  torch::set_num_threads(1);
  return runs;
}

// Chunks run in parallel, and so do the views and strategies of each chunk (all that
// runs in parallel for one instance): two threads give one thread's solutions. One
// instance's are costed on the instance and never worse than the greedy views of aug8 (a
// subset of its candidates), so no view or strategy is lost or mixed up.
TEST(Decoding, ParallelChunksAndViewsGiveTheSameSolutionsAsOneThread) {
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, NetworkOptions{}, 20);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(9);
    const auto instances = problem->generate(13, 17, gen);
    for (const auto* decoding : {"greedy", "sample:3", "sample:2+greedy+aug16"}) {
      const auto runs = on_one_and_two_threads(*agent, instances, decoding, 3);
      EXPECT_TRUE(torch::equal(runs[0].actions, runs[1].actions)) << name << " " << decoding;
      EXPECT_TRUE(torch::equal(runs[0].cost, runs[1].cost)) << name << " " << decoding;
    }
    const auto instance = instances.slice(0, 1);
    const auto runs = on_one_and_two_threads(*agent, instance, "sample:2+greedy+aug16", 1);
    EXPECT_TRUE(torch::equal(runs[0].actions, runs[1].actions)) << name;
    EXPECT_TRUE(torch::equal(runs[0].cost, runs[1].cost)) << name;
    const auto checked = problem->check(instance, runs[1].actions).to(torch::kFloat);
    EXPECT_TRUE(torch::allclose(runs[1].cost, checked, 1e-5, 1e-5)) << name;
    const auto aug8 = solve(*agent, instance, parse_decoding("aug8"), 1, gen).cost;
    EXPECT_TRUE((runs[1].cost <= aug8 + 1e-6).all().item<bool>()) << name;
  }
}

TEST(Decoding, SamplingFollowsThePolicysProbabilities) {
  torch::manual_seed(3);
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, NetworkOptions{}, 5);
  agent->network().eval();
  torch::NoGradGuard no_grad;
  auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
  const int64_t draws = 20000;
  // Copies of one instance share its encoding (sample:K), the first step included.
  const auto t = agent->rollout_copies(problem->generate(1, 5, gen), Selection::sample, gen, draws);
  // First city: its frequency matches the probability the policy gave it (4 s.e.).
  const auto first = t.actions.select(1, 0), p = t.step_log_probs.select(1, 0).exp();
  ASSERT_GT((p.max() - p.min()).item<double>(), 0.05);  // far from uniform: a test with teeth
  for (int64_t city = 0; city < 5; ++city) {
    const auto chosen = first == city;
    const double freq = chosen.to(torch::kDouble).mean().item<double>();
    if (freq == 0) continue;
    const double prob = p.masked_select(chosen)[0].item<double>();
    EXPECT_NEAR(freq, prob, 4 * std::sqrt(prob * (1 - prob) / draws) + 1e-9) << city;
  }
}

// sample_rows() draws what inverse CDF over LibTorch's cumulative sums draws from the
// same uniforms (the tensor ops it replaced), in float and double, on unnormalised rows
// with zero-mass actions, which it never picks. (Summing in float instead of LibTorch's
// double would change a draw only where a target falls within a rounding step: rare
// here, so bit-identity rests on the same arithmetic, not on this test alone.)
TEST(Decoding, SampleRowsIsTheInverseCdfOfTheCumulativeSums) {
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    auto data = at::make_generator<at::CPUGeneratorImpl>(5);
    auto probs = torch::rand({4000, 37}, data, torch::TensorOptions().dtype(dtype)) * 3;
    probs.masked_fill_(torch::rand({4000, 37}, data) < 0.4, 0);
    probs.select(1, 36).fill_(0);  // a row's last action never has mass here
    probs.select(1, 0).clamp_min_(1e-3);
    // Rows whose one mass is the smallest float: about half their targets round up to the
    // total, past every cumulative sum (drawn: the last action with mass); and a row
    // without mass (drawn: its last action).
    probs.slice(0, 1, 201).zero_().select(1, 0).fill_(std::numeric_limits<float>::denorm_min());
    probs.select(0, 0).zero_();
    auto draw = at::make_generator<at::CPUGeneratorImpl>(11);
    const auto drawn = sample_rows(probs, draw);
    auto same = at::make_generator<at::CPUGeneratorImpl>(11);
    const auto uniform = torch::rand({4000, 1}, same, probs.options());
    const auto cumulative = probs.cumsum(1);
    const auto target = uniform * cumulative.select(1, 36).unsqueeze(1);
    const auto expected = torch::searchsorted(cumulative, target, false, true).squeeze(1);
    const auto last_with_mass = 36 - (probs > 0).flip(1).to(torch::kByte).argmax(1);
    EXPECT_TRUE(torch::equal(drawn, torch::minimum(expected, last_with_mass))) << dtype;
    // The GPU's way, from the same uniforms: the same draws.
    EXPECT_TRUE(torch::equal(sample_rows_by_tensor_ops(probs, uniform.squeeze(1)), drawn)) << dtype;
    EXPECT_EQ(drawn[0].item<int64_t>(), 36) << dtype;
    EXPECT_TRUE(drawn.slice(0, 1, 201).eq(0).all().item<bool>()) << dtype;
    EXPECT_TRUE(
        probs.slice(0, 1).gather(1, drawn.slice(0, 1).unsqueeze(1)).gt(0).all().item<bool>())
        << dtype;
  }
}

// Sampled copies (sample:K; the attention model decodes them from one encoding per
// instance) carry the probabilities the network gives their actions when each copy is
// an instance of its own.
TEST(Decoding, SampledCopiesFollowThePolicyOfEachCopy) {
  for (const std::string name : {"tsp", "cvrp", "bpp3d"}) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(12);
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, NetworkOptions{}, 10);
    agent->network().eval();
    const int64_t K = 5;
    const auto instances = problem->generate(4, 10, gen);
    torch::NoGradGuard no_grad;
    const auto t = agent->rollout_copies(instances, Selection::sample, gen, K);
    ASSERT_EQ(t.actions.size(0), 4 * K) << name;
    const auto replayed = agent->replay(instances.repeat_each(K), t.actions);
    EXPECT_TRUE(torch::allclose(replayed.step_log_probs, t.step_log_probs, 1e-5, 1e-5)) << name;
    EXPECT_TRUE(torch::allclose(replayed.cost, t.cost)) << name;
    // Sampling, not K greedy copies: some instance's copies differ.
    const auto rows = t.actions.view({4, K, -1});
    EXPECT_FALSE(torch::equal(rows, rows.select(1, 0).unsqueeze(1).expand_as(rows))) << name;
  }
}

TEST(Decoding, BestOfStrategiesNeverWorseThanGreedy) {
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
  const auto instances = problem->generate(16, 20, gen);
  const auto greedy = solve(*agent, instances, parse_decoding("greedy"), 16, gen).cost;
  const auto aug8 = solve(*agent, instances, parse_decoding("aug8"), 16, gen).cost;
  EXPECT_TRUE((aug8 <= greedy + 1e-6).all().item<bool>());
}

// augK, K > 8: rotated views add candidates to aug8's, and the costs reported are the
// instances' own (a rotated view is scaled into the square, its costs are not).
// The shipped models: an untrained network may send every CVRP customer back via the
// depot, where every view's solutions cost the same.
TEST(Decoding, RotatedViewsAddCandidatesCostedOnTheInstances) {
  for (const std::string name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto agent = load_agent(
        std::filesystem::path(EIE_SOURCE_DIR) / "results/models" / (name + "100.h5"), problem);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
    const auto instances = problem->generate(16, 30, gen);
    const auto aug8 = solve(*agent, instances, parse_decoding("aug8"), 16, gen);
    const auto aug32 = solve(*agent, instances, parse_decoding("aug32"), 16, gen);
    const auto checked = problem->check(instances, aug32.actions).to(torch::kFloat);
    EXPECT_TRUE(torch::allclose(aug32.cost, checked, 1e-5, 1e-5)) << name;
    EXPECT_TRUE((aug32.cost <= aug8.cost + 1e-5).all().item<bool>()) << name;
    // The views decode other solutions: some instance gets a cheaper one.
    EXPECT_TRUE((aug32.cost < aug8.cost - 1e-5).any().item<bool>()) << name;
  }
  // Packing has no rotated views: a clear error, not aug8's solutions.
  const auto packing = make_problem("bpp3d");
  auto agent = make_agent(packing, NetworkOptions{}, 10);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
  EXPECT_THROW((void)solve(*agent, packing->generate(2, 10, gen), parse_decoding("aug16"), 2, gen),
               std::invalid_argument);
}

TEST(Decoding, EnvironmentMaskIsPure) {
  const auto coords = torch::rand({2, 5, 2});
  tsp::TspEnvironment env(coords, coords);
  EXPECT_TRUE(env.feasible().all().item<bool>());
  env.step(torch::tensor({3, 0}));
  const auto mask = env.feasible();
  EXPECT_TRUE(torch::equal(mask, env.feasible()));
  EXPECT_FALSE(mask[0][3].item<bool>());
  EXPECT_FALSE(mask[1][0].item<bool>());
  EXPECT_EQ(mask.sum().item<int64_t>(), 8);
}

TEST(Decoding, ReplayGivesTheLogProbabilitiesOfTheReplayedSolutions) {
  for (const std::string name : {"tsp", "cvrp"}) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, NetworkOptions{}, 20);
    agent->network().eval();
    const auto instances = problem->generate(6, 15, gen);
    torch::NoGradGuard no_grad;
    const auto greedy = agent->rollout(instances, Selection::greedy, std::nullopt);
    const auto replayed = agent->replay(instances, greedy.actions);
    EXPECT_TRUE(torch::equal(replayed.actions, greedy.actions)) << name;
    EXPECT_TRUE(torch::allclose(replayed.step_log_probs, greedy.step_log_probs, 0, 1e-6)) << name;
    EXPECT_TRUE(torch::allclose(replayed.cost, greedy.cost)) << name;
  }
}

// The decode loop with gradients, step by step, on the network itself.
torch::Tensor step_by_step_log_probs(Agent& agent, const Problem& problem,
                                     const Instances& instances, const torch::Tensor& actions) {
  if (auto* am = dynamic_cast<policy::AttentionAgent*>(&agent)) {
    const auto env = dynamic_cast<const RoutingProblem&>(problem).environment(instances);
    const auto policy = am->model()->start(*env, am->plan(env->size()));
    return decode(*env, *policy, Selection::replay, std::nullopt, actions).step_log_probs;
  }
  auto& pack = dynamic_cast<policy::Attend2PackAgent&>(agent);
  const auto env = dynamic_cast<const bpp3d::Bpp3dProblem&>(problem).environment(instances);
  const auto plan = pack.plan(env->size());
  const auto policy =
      pack.model()->start(*env, pack.model()->encode(*env, plan.encoder), plan.glimpse);
  return decode(*env, *policy, Selection::replay, std::nullopt, actions).step_log_probs;
}

TEST(Decoding, ScoringAllStepsAtOnceMatchesTheDecodeLoopAndItsGradients) {
  for (const std::string name : {"tsp", "cvrp", "bpp3d"}) {
    SCOPED_TRACE(name);
    torch::manual_seed(13);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(10);
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, NetworkOptions{}, 20);
    agent->network().train();  // batch statistics, as in training
    // 17 x 20 packing steps: more height maps than one part of the placement CNN.
    const auto instances = problem->generate(17, 20, gen);
    const auto actions = agent->rollout(instances, Selection::sample, gen).actions;
    const auto gradients = [&](const torch::Tensor& loss) {
      agent->network().zero_grad();
      loss.backward();
      std::vector<torch::Tensor> g;
      for (const auto& p : agent->network().parameters()) {
        g.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
      }
      return g;
    };
    const auto step_by_step = step_by_step_log_probs(*agent, *problem, instances, actions);
    // The agent in training mode scores all steps at once.
    const auto at_once = agent->replay(instances, actions, Mode::training).step_log_probs;
    ASSERT_EQ(at_once.sizes(), step_by_step.sizes());
    EXPECT_TRUE(torch::allclose(at_once.detach(), step_by_step.detach(), 1e-5, 1e-5));
    const auto expected = gradients(step_by_step.sum());
    const auto got = gradients(at_once.sum());
    const auto names = agent->network().named_parameters().keys();
    // float32 sums in another order: up to 2.4e-5 of a gradient's largest entry
    // apart (measured: TSP's first W_out); a wrong term or mask moves it by far more.
    const double relative = 5e-5;
    for (size_t i = 0; i < got.size(); ++i) {
      const double scale = expected[i].abs().max().item<double>();
      EXPECT_LE((got[i] - expected[i]).abs().max().item<double>(), relative * scale + 1e-4)
          << names[i] << " of magnitude " << scale;
    }
  }
}

TEST(Decoding, ReplayRejectsShortOrInfeasibleSolutions) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(9);
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, NetworkOptions{}, 20);
  const auto instances = problem->generate(2, 5, gen);
  torch::NoGradGuard no_grad;
  EXPECT_THROW((void)agent->replay(instances, torch::tensor({{0, 1, 2}, {2, 1, 0}})),
               std::invalid_argument);
  EXPECT_THROW((void)agent->replay(instances, torch::tensor({{0, 1, 2, 3, 4}, {0, 1, 1, 3, 4}})),
               std::invalid_argument);
}

// An environment that never finishes: one always-feasible action that changes nothing.
class EndlessEnvironment final : public Environment {
 public:
  [[nodiscard]] torch::Tensor feasible() const override { return torch::ones({1, 1}, torch::kBool); }
  void step(const torch::Tensor& /*action*/) override { ++steps; }
  [[nodiscard]] bool done() const override { return false; }
  [[nodiscard]] int64_t max_steps() const override { return 7; }
  [[nodiscard]] torch::Tensor cost() const override { return torch::zeros({1}); }
  int64_t steps = 0;
};

class UniformPolicy final : public StepPolicy {
 public:
  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    return torch::zeros(feasible.sizes());
  }
};

TEST(Decoding, StopsWithAnErrorAtTheProblemsStepBound) {
  EndlessEnvironment env;
  UniformPolicy policy;
  try {
    (void)decode(env, policy, Selection::greedy);
    FAIL() << "an endless decode returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no solution after 7 steps"), std::string::npos) << e.what();
  }
  EXPECT_EQ(env.steps, 7);
}

// Two instances of four actions, two steps, action 0 masked: an environment that stops
// at an infeasible action, as the packing one does.
class StrictEnvironment final : public Environment {
 public:
  [[nodiscard]] torch::Tensor feasible() const override {
    return torch::tensor({{false, true, true, true}, {false, false, true, true}});
  }
  void step(const torch::Tensor& action) override {
    if (!feasible().gather(1, action.unsqueeze(1)).all().item<bool>()) {
      throw std::logic_error("stepped an infeasible action");
    }
    ++steps;
  }
  [[nodiscard]] bool done() const override { return steps == 2; }
  [[nodiscard]] int64_t max_steps() const override { return 2; }
  [[nodiscard]] torch::Tensor cost() const override { return torch::zeros({2}); }
  int64_t steps = 0;
};

// The given logits [2, 4], masked and normalised as the policies do.
class FixedLogits final : public StepPolicy {
 public:
  explicit FixedLogits(torch::Tensor logits) : logits_(std::move(logits)) {}
  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    return torch::log_softmax(
        logits_.masked_fill(feasible.logical_not(), -std::numeric_limits<float>::infinity()), 1);
  }

 private:
  torch::Tensor logits_;
};

// Finite logits choose feasible actions however large they are; NaN or infinite ones end
// in one error after the loop, and the environment never steps a masked action (greedy
// takes NaN for the largest value, action 0 here; a sample without mass its last).
TEST(Decoding, NonFiniteLogitsEndInOneErrorNeverInAMaskedAction) {
  const float big = std::numeric_limits<float>::max();
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
  const auto forced = torch::tensor({{1}, {2}});
  for (const auto selection : {Selection::greedy, Selection::sample}) {
    for (const auto& logits : {torch::tensor({{big, -big, big, -big}, {big, big, -big, big}}),
                               torch::full({2, 4}, -big)}) {
      StrictEnvironment env;
      FixedLogits policy(logits);
      const auto t = decode(env, policy, selection, gen);
      EXPECT_TRUE(torch::isfinite(t.log_likelihood).all().item<bool>());
    }
    for (const auto& logits :
         {torch::full({2, 4}, nan), torch::tensor({{nan, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, nan}}),
          torch::tensor({{inf, 0.f, inf, 0.f}, {0.f, 0.f, -inf, -inf}})}) {
      for (const bool multistart : {false, true}) {
        StrictEnvironment env;
        FixedLogits policy(logits);
        try {
          (void)decode(env, policy, selection, gen, multistart ? forced : torch::Tensor());
          ADD_FAILURE() << "decoded with logits " << logits;
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("non-finite logits"), std::string::npos) << e.what();
        }
        EXPECT_EQ(env.steps, 2);
      }
    }
  }
}

// Every problem's network with its weights scaled to extremes (finite), or one of them
// infinite or NaN, under every decoding: feasible solutions or the one error.
TEST(Decoding, ExtremeWeightsGiveFeasibleSolutionsOrOneError) {
  const std::vector<std::pair<std::string, std::function<void(torch::nn::Module&)>>> poisons = {
      {"x1e30",
       [](torch::nn::Module& m) {
         for (auto& p : m.parameters()) p.mul_(1e30);
       }},
      {"x1e6",
       [](torch::nn::Module& m) {
         for (auto& p : m.parameters()) p.mul_(1e6);
       }},
      {"inf", [](torch::nn::Module& m) { m.parameters().front().view(-1)[0] = INFINITY; }},
      {"nan", [](torch::nn::Module& m) { m.parameters().front().view(-1)[0] = NAN; }}};
  for (const auto* descriptor : problem_descriptors()) {
    if (!test::has_policy(descriptor->name)) continue;
    const auto problem = make_problem(descriptor->name);
    const bool is_routing = test::routing(descriptor->name);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
    const auto instances =
        problem->generate(3, is_routing ? test::kRoutingSize : test::kPackingSize, gen);
    for (const auto& [poison, apply] : poisons) {
      auto agent = test::grid_agent(problem, is_routing ? test::kRoutingN : test::kPackingN);
      torch::NoGradGuard no_grad;
      apply(agent->network());
      for (const auto* decoding : {"greedy", "sample:3", "multistart:4"}) {
        const auto cell = descriptor->name + " " + poison + " " + decoding;
        try {
          const auto solutions = solve(*agent, instances, parse_decoding(decoding), 2, gen);
          EXPECT_NO_THROW((void)problem->check(instances, solutions.actions)) << cell;
          EXPECT_NE(poison, "nan") << cell << ": solved";
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("non-finite logits"), std::string::npos)
              << cell << ": " << e.what();
        }
      }
    }
  }
}

// Values `run` reads back from tensors (each one, on a GPU, waits for the device's
// queue), counted with LibTorch's profiler on this thread.
int64_t values_read(const std::function<void()>& run) {
  namespace profiler = torch::autograd::profiler;
  int64_t count = 0;
  {
    profiler::TLSLegacyProfilerGuard guard(
        torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU),
        [&count](const profiler::thread_event_lists& lists) {
          for (const auto& events : lists) {
            for (const auto& e : events) {
              count += e.kind() == profiler::EventKind::PushRange &&
                       std::string(e.name()) == "aten::_local_scalar_dense";
            }
          }
        });
    run();
  }
  return count;
}

// On a GPU every value the host reads waits for the device's queue: the decode loop
// reads none per step (feasibility flags stay on the device, sampling draws there), only
// a few per decode. Counted on the CPU: TSP reads as many values for 45 steps as for
// 15; CVRP reads whether every route is back at the depot once per step beyond the
// fewest its demands allow (n customers and the routes the total demand needs), not
// once per step.
TEST(Decoding, TheDecodeLoopReadsNoValuePerStep) {
  torch::set_num_threads(1);
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, test::small_network(32, 2, 32, 1), 20);
    for (const auto* decoding : {"greedy", "sample:2", "multistart:3"}) {
      std::vector<int64_t> reads;
      for (const int64_t n : {15, 45}) {
        auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
        const auto instances = problem->generate(4, n, gen);
        Solutions solutions;
        reads.push_back(values_read(
            [&] { solutions = solve(*agent, instances, parse_decoding(decoding), 4, gen); }));
        // Routing solutions take n steps and one more per route.
        const int64_t beyond_n = solutions.actions.size(1) - n;
        EXPECT_LE(reads.back(), 5 + beyond_n) << name << " " << decoding << " at n = " << n;
      }
      if (std::string(name) == "tsp") {
        EXPECT_EQ(reads[0], reads[1]) << decoding << ": values read back at n = 15 and n = 45";
      }
    }
  }
}

// A greedy TSP rollout is captured whole as a CUDA graph on a GPU
// (src/agent/graphed_rollouts.h), where one value read back ends the capture: with
// the decode loop's checks deferred, the rollout after a first one of the same shape
// (graphs capture the second) reads none, encoder included, under every attention
// setting but tiles (joined on the host), and the caller's check still finds weights
// that give NaN.
TEST(Decoding, AGreedyTspRolloutWithDeferredChecksReadsNoValue) {
  const auto problem = make_problem("tsp");
  auto agent = test::grid_agent(problem, test::kRoutingN);
  torch::set_num_threads(1);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  const auto instances = problem->generate(2, test::kRoutingSize, gen);
  for (const auto& [name, config] : test::attention_settings("tsp")) {
    if (config.window_parts.tiles) continue;
    agent->set_attention(config);
    (void)agent->rollout(instances, Selection::greedy, std::nullopt);
    Trajectory t;
    const auto reads = values_read([&] {
      const HostChecksDeferred deferred;
      t = agent->rollout(instances, Selection::greedy, std::nullopt);
    });
    EXPECT_EQ(reads, 0) << name;
    EXPECT_NO_THROW(throw_if_not_finite(t.step_log_probs)) << name;
  }
  agent->set_attention({});
  {
    torch::NoGradGuard no_grad;
    for (auto& p : agent->network().parameters()) p.fill_(std::nan(""));
  }
  Trajectory poisoned;
  {
    const HostChecksDeferred deferred;
    EXPECT_NO_THROW(poisoned = agent->rollout(instances, Selection::greedy, std::nullopt));
  }
  EXPECT_THROW(throw_if_not_finite(poisoned.step_log_probs), std::runtime_error);
}

// A sampled rollout replayed from a CUDA graph reads its uniforms from rows the replay
// drew before (src/agent/graphed_rollouts.h): given rows drawn at once from a generator,
// a sampled TSP rollout, in inference and in a training step's decode, samples what
// drawing step by step from the same generator does, reads no value back, and reads
// one row per step; the warm-up's constant uniforms leave the generator where it was.
TEST(Decoding, SampledRolloutsFromGivenUniformsSampleWhatTheGeneratorWould) {
  const auto problem = make_problem("tsp");
  auto agent = test::grid_agent(problem, test::kRoutingN);
  auto data = at::make_generator<at::CPUGeneratorImpl>(5);
  const auto instances = problem->generate(3, test::kRoutingSize, data);
  for (const auto mode : {Mode::inference, Mode::training}) {
    const auto label = mode == Mode::training ? "training" : "inference";
    auto gen = at::make_generator<at::CPUGeneratorImpl>(9);
    const auto drawn = agent->rollout(instances, Selection::sample, gen, {}, mode);
    auto again = at::make_generator<at::CPUGeneratorImpl>(9);
    {
      const UniformsGiven warm_up;
      (void)agent->rollout(instances, Selection::sample, again, {}, mode);
    }
    const int64_t steps = drawn.actions.size(1);
    const auto rows = torch::empty({steps, instances.count()},
                                   torch::TensorOptions().dtype(drawn.step_log_probs.scalar_type()))
                          .uniform_(0, 1, again);
    Trajectory replayed;
    {
      const UniformsGiven given(rows);
      const HostChecksDeferred deferred;
      EXPECT_EQ(values_read([&] {
                  replayed = agent->rollout(instances, Selection::sample, std::nullopt, {}, mode);
                }),
                0)
          << label;
      EXPECT_EQ(given.used(), steps) << label;
    }
    EXPECT_TRUE(torch::equal(replayed.actions, drawn.actions)) << label;
  }
}

// multistart:K on instances with fewer than K first choices takes all of them, alone, with
// the symmetries and with other strategies: the same solutions as multistart:n.
TEST(Decoding, MultistartWithMoreStartsThanChoicesTakesThemAll) {
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto agent = make_agent(problem, test::small_network(32, 2, 32, 1), 20);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
    const auto instances = problem->generate(3, 9, gen);
    for (const auto& [wide, exact] : std::vector<std::pair<std::string, std::string>>{
             {"multistart:100", "multistart:9"},
             {"multistart:100+aug8", "multistart:9+aug8"},
             {"greedy+multistart:50", "greedy+multistart:9"}}) {
      auto g1 = at::make_generator<at::CPUGeneratorImpl>(4), g2 = g1.clone();
      const auto a = solve(*agent, instances, parse_decoding(wide), 3, g1);
      const auto b = solve(*agent, instances, parse_decoding(exact), 3, g2);
      EXPECT_TRUE(torch::equal(a.actions, b.actions)) << name << " " << wide;
      EXPECT_NO_THROW((void)problem->check(instances, a.actions)) << name << " " << wide;
    }
  }
}

TEST(Decoding, BadStrategyNamesAreRejected) {
  for (const auto* bad : {"beam", "sample:0", "sample:x", "sample:"}) {
    EXPECT_THROW((void)parse_decoding(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace eie
