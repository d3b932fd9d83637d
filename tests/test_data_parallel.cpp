// Two ranks over loopback (threads of this process, one Gloo process group each)
// train as one process on the union of their batches: same averaged gradient, the
// same parameters after Adam steps, for the rollout and the multi-start baseline.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "src/agent/policy_registry.h"
#include "src/nn/batch_statistics.h"
#include "src/parallel/gloo_collective.h"
#include "src/problem/registry.h"
#include "src/train/data_parallel.h"
#include "src/train/multistart.h"
#include "tests/test_support.h"

namespace eie {
namespace {

constexpr int64_t kInstances = 8, kN = 10, kStarts = 4, kSteps = 3;

// One step's loss on instances [begin, end) of the union batch, for fixed actions.
using Loss = std::function<torch::Tensor(Agent&, int64_t begin, int64_t end)>;

std::vector<torch::Tensor> flat_state(Agent& agent, bool gradients) {
  std::vector<torch::Tensor> out;
  for (const auto& p : agent.network().parameters()) {
    out.push_back(gradients ? p.grad().detach().clone() : p.detach().clone());
  }
  return out;
}

double relative_difference(const std::vector<torch::Tensor>& a,
                           const std::vector<torch::Tensor>& b) {
  const auto x = torch::cat([&] {
    std::vector<torch::Tensor> v;
    for (const auto& t : a) v.push_back(t.reshape(-1).to(torch::kDouble));
    return v;
  }());
  const auto y = torch::cat([&] {
    std::vector<torch::Tensor> v;
    for (const auto& t : b) v.push_back(t.reshape(-1).to(torch::kDouble));
    return v;
  }());
  return ((x - y).norm() / y.norm()).item<double>();
}

struct Run {
  std::vector<torch::Tensor> first_gradient;  // averaged, before clipping
  std::vector<torch::Tensor> parameters;      // after kSteps steps
};

// kSteps Adam steps on instances [begin, end), as the trainer takes them.
Run train_steps(Agent& agent, const Loss& loss, int64_t begin, int64_t end,
                Collective* collective) {
  agent.network().train();
  torch::optim::Adam optimizer(agent.network().parameters(), torch::optim::AdamOptions(1e-3));
  std::optional<nn::SyncBatchStatistics> sync;
  if (collective) sync.emplace(*collective);
  Run run;
  for (int64_t step = 0; step < kSteps; ++step) {
    optimizer.zero_grad();
    loss(agent, begin, end).backward();
    if (collective) average_gradients(agent.network(), *collective);
    if (step == 0) run.first_gradient = flat_state(agent, true);
    torch::nn::utils::clip_grad_norm_(agent.network().parameters(), 1.0);
    optimizer.step();
  }
  run.parameters = flat_state(agent, false);
  return run;
}

void expect_two_ranks_match_one_process(const Loss& loss) {
  torch::manual_seed(5);
  const auto problem = make_problem("tsp");
  const auto single = make_agent(problem, test::small_network(32, 4, 64, 2), kN);
  // float64: a bias that batch normalisation follows has a zero gradient, which float32
  // leaves as rounding noise of either sign that Adam scales up to whole steps.
  const auto rank0 = single->clone(), rank1 = single->clone();
  for (auto* agent : {single.get(), rank0.get(), rank1.get()}) agent->network().to(torch::kDouble);
  const auto alone = train_steps(*single, loss, 0, kInstances, nullptr);

  const int port = free_loopback_port();
  Run runs[2];
  std::string errors[2];
  Agent* agents[2] = {rank0.get(), rank1.get()};
  std::vector<std::thread> ranks;
  for (int64_t r = 0; r < 2; ++r) {
    ranks.emplace_back([&, r] {
      try {
        const auto collective = join_job({"127.0.0.1", port, 2, r}, std::chrono::seconds(30));
        const auto share = share_of(kInstances, collective.get());
        runs[r] = train_steps(*agents[r], loss, share.begin, share.end, collective.get());
      } catch (const std::exception& e) {
        errors[r] = std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
      }
    });
  }
  for (auto& t : ranks) t.join();
  ASSERT_EQ(errors[0] + errors[1], "");
  EXPECT_LT(relative_difference(runs[0].first_gradient, alone.first_gradient), 1e-5);
  for (size_t i = 0; i < alone.parameters.size(); ++i) {
    EXPECT_TRUE(torch::equal(runs[0].parameters[i], runs[1].parameters[i])) << i;
    EXPECT_LT((runs[0].parameters[i] - alone.parameters[i]).abs().max().item<double>(), 1e-4) << i;
  }
}

// The union batch and its sampled solutions, drawn once by an untrained policy.
struct Batch {
  Instances instances;
  torch::Tensor actions;    // rollout: [kInstances, n]; multi-start: [kInstances kStarts, n]
  torch::Tensor reference;  // rollout: baseline costs [kInstances]
};

Batch sampled_batch(bool multistart) {
  torch::manual_seed(9);
  const auto problem = make_problem("tsp");
  auto policy = make_agent(problem, test::small_network(32, 4, 64, 2), kN);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  auto fields = problem->generate(kInstances, kN, gen).fields();
  for (auto& [name, value] : fields) {
    if (value.is_floating_point()) value = value.to(torch::kDouble);
  }
  policy->network().to(torch::kDouble);
  Batch b{Instances(fields), {}, {}};
  const auto starts = multistart ? problem->start_actions(b.instances, kStarts) : torch::Tensor();
  b.actions = policy->rollout(b.instances, Selection::sample, gen, starts).actions;
  b.reference = torch::rand({kInstances}, torch::kDouble) + 2.0;
  return b;
}

TEST(DataParallel, TwoRanksMatchOneProcessOnTheUnionBatchWithTheRolloutBaseline) {
  const auto b = sampled_batch(false);
  expect_two_ranks_match_one_process([&](Agent& agent, int64_t begin, int64_t end) {
    const auto t =
        agent.replay(b.instances.slice(begin, end), b.actions.slice(0, begin, end), Mode::training);
    return ((t.cost - b.reference.slice(0, begin, end)).detach() * t.log_likelihood).mean();
  });
}

TEST(DataParallel, TwoRanksMatchOneProcessOnTheUnionBatchWithTheMultiStartBaseline) {
  const auto b = sampled_batch(true);
  expect_two_ranks_match_one_process([&](Agent& agent, int64_t begin, int64_t end) {
    const auto t = agent.replay(b.instances.slice(begin, end).repeat_each(kStarts),
                                b.actions.slice(0, begin * kStarts, end * kStarts), Mode::training);
    const auto advantage = shared_baseline_advantages(t.cost, 1, kStarts);
    return (advantage.detach() * t.log_likelihood).mean();
  });
}

TEST(DataParallel, SharesCoverEveryRowOnceAndSeedsDifferByRank) {
  struct Fake : Collective {
    int64_t r, n;
    Fake(int64_t rank, int64_t size) : r(rank), n(size) {}
    [[nodiscard]] int64_t rank() const override { return r; }
    [[nodiscard]] int64_t size() const override { return n; }
    void sum(torch::Tensor&) override {}
    void broadcast(torch::Tensor&) override {}
  };
  for (const int64_t count : {1, 7, 1000}) {
    int64_t next = 0;
    for (int64_t r = 0; r < 3; ++r) {
      const Fake f(r, 3);
      const auto s = share_of(count, &f);
      EXPECT_EQ(s.begin, next);
      EXPECT_LE(s.size(), count / 3 + 1);
      next = s.end;
    }
    EXPECT_EQ(next, count);
  }
  EXPECT_EQ(rank_seed(1234, 0, 0), 1234u);  // one rank: today's run
  EXPECT_NE(rank_seed(1234, 1, 0), rank_seed(1234, 2, 0));
  EXPECT_NE(rank_seed(1234, 1, 0), rank_seed(1234, 1, 5));
}

}  // namespace
}  // namespace eie
