// A few dozen REINFORCE steps on TSP10 lower the greedy cost; imitation of a
// heuristic gets near it; a resumed run reaches exactly the state of an
// uninterrupted one.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "src/train/t_test.h"
#include "src/train/trainer.h"
#include "src/train/training_curve.h"
#include "tests/test_support.h"

namespace eie {
namespace {

NetworkOptions small_network() { return test::small_network(64, 8, 128, 2); }

TrainerOptions short_run(const std::filesystem::path& dir, int64_t epochs) {
  TrainerOptions t;
  t.n = 10;
  t.epochs = epochs;
  t.steps = 10;
  t.batch = 128;
  t.lr = 1e-3;
  t.val_size = 200;
  t.baseline_eval_size = 200;
  t.seed = 11;
  t.out_dir = dir;
  return t;
}

double greedy_mean(Agent& agent, const Instances& instances) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
  return solve(agent, instances, Decoding{}, 256, gen).cost.mean().item<double>();
}

// The fields of a run's last log row, and how many rows it has.
std::pair<std::vector<std::string>, int64_t> last_log_row(const std::filesystem::path& dir) {
  std::ifstream log(dir / "log.csv");
  std::string line, last;
  int64_t rows = -1;  // the header
  while (std::getline(log, line)) last = line, ++rows;
  std::vector<std::string> fields;
  std::stringstream row(last);
  while (std::getline(row, line, ',')) fields.push_back(line);
  return {fields, rows};
}

// The lr column of a run's last log row.
double last_logged_lr(const std::filesystem::path& dir) {
  return std::stod(last_log_row(dir).first.at(5));
}

TEST(Training, FewStepsLowerGreedyCostOnTsp10) {
  const auto problem = make_problem("tsp");
  torch::manual_seed(2);
  auto agent = make_agent(problem, small_network(), 10);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(99);
  const auto held_out = problem->generate(500, 10, gen);
  const double before = greedy_mean(*agent, held_out);
  const auto dir = test::scratch_dir("train-learns");
  train(*agent, short_run(dir, 4));
  const double after = greedy_mean(*agent, held_out);
  EXPECT_LT(after, before - 0.3) << "before " << before << ", after " << after;
  // A policy that got this much better won a t-test: the winner is on disk.
  const auto winner = load_agent(dir / "baseline.h5", problem);
  EXPECT_LT(greedy_mean(*winner, held_out), before - 0.3);
}

TEST(Training, ImitationBringsTheGreedyPolicyNearTheTeacher) {
  const auto problem = make_problem("tsp");
  torch::manual_seed(5);
  auto agent = make_agent(problem, small_network(), 10);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(98);
  const auto held_out = problem->generate(500, 10, gen);
  const double teacher = problem->check(held_out, problem->improve("2opt", held_out,
                                                                   problem->construct("nn", held_out)))
                             .mean()
                             .item<double>();
  const double before = greedy_mean(*agent, held_out);
  auto run = short_run(test::scratch_dir("train-imitation"), 3);
  run.teacher = "nn+2opt";
  train(*agent, run);
  const double after = greedy_mean(*agent, held_out);
  EXPECT_LT(after, teacher * 1.15) << "before " << before << ", teacher " << teacher;
  EXPECT_LT(after, before - 0.3) << "before " << before << ", after " << after;
}

TEST(Training, AnUnknownTeacherFailsBeforeTraining) {
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, small_network(), 10);
  auto run = short_run(test::scratch_dir("train-bad-teacher"), 1);
  run.teacher = "nn+3opt";
  EXPECT_THROW(train(*agent, run), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(run.out_dir / "log.csv"));
}

TEST(Training, ResumeMatchesUninterruptedRun) {
  const auto problem = make_problem("tsp");
  const auto straight_dir = test::scratch_dir("train-straight");
  const auto resumed_dir = test::scratch_dir("train-resumed");
  torch::manual_seed(3);  // same initial weights for both runs
  auto straight = make_agent(problem, small_network(), 10);
  train(*straight, short_run(straight_dir, 3));

  torch::manual_seed(3);
  auto first = make_agent(problem, small_network(), 10);
  train(*first, short_run(resumed_dir, 2));
  auto second = make_agent(problem, small_network(), 10);
  auto resume = short_run(resumed_dir, 3);
  resume.resume = true;
  train(*second, resume);

  auto expected = straight->network().named_parameters();
  for (const auto& p : second->network().named_parameters()) {
    EXPECT_TRUE(torch::equal(p.value(), expected[p.key()])) << p.key();
  }
}

TEST(Training, ResumeTakesANewLearningRateOnlyWhenAsked) {
  const auto problem = make_problem("tsp");
  const auto dir = test::scratch_dir("train-lr");
  torch::manual_seed(4);
  auto agent = make_agent(problem, small_network(), 10);
  train(*agent, short_run(dir, 1));
  const auto lr_logged = [&] { return last_logged_lr(dir); };
  auto resume = short_run(dir, 2);
  resume.resume = true;
  resume.lr = 0.5;  // ignored: the checkpoint's rate continues
  train(*agent, resume);
  EXPECT_NE(lr_logged(), 0.5);
  resume.epochs = 3;
  resume.resume_with_lr = true;
  train(*agent, resume);
  EXPECT_EQ(lr_logged(), 0.5);
}

// Trains `agent` as `run` says; the wall-clock seconds it took.
double seconds_to_train(Agent& agent, const TrainerOptions& run) {
  const auto start = std::chrono::steady_clock::now();
  train(agent, run);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return took.count();
}

TEST(Training, ATimeBudgetEndsTheRunWithTheRateAtZero) {
  const auto problem = make_problem("tsp");
  const auto dir = test::scratch_dir("train-budget");
  auto agent = make_agent(problem, small_network(), 10);
  // One epoch of hours without the budget: the budget always runs out inside it, so the run
  // cannot stop between epochs with a rate that validation time left above zero.
  auto run = short_run(dir, 2);
  run.steps = 1000000;
  run.time_budget = 2;
  EXPECT_LT(seconds_to_train(*agent, run), 30);
  EXPECT_TRUE(std::filesystem::exists(dir / "model.h5"));
  EXPECT_EQ(last_logged_lr(dir), 0.0);
}

// Bursts: each invocation stops after --stop-after seconds, and the rate falls over the
// run budget as one uninterrupted run's would, ending at 0 when the budget is spent.
TEST(Training, ARunTrainsInBurstsOnOneScheduleOverThem) {
  const auto problem = make_problem("tsp");
  const auto dir = test::scratch_dir("train-bursts");
  auto agent = make_agent(problem, small_network(), 10);
  auto run = short_run(dir, 1000000);
  run.run_budget = 3;
  run.stop_after = 1;
  EXPECT_LT(seconds_to_train(*agent, run), 20);
  auto [row, rows] = last_log_row(dir);
  ASSERT_EQ(row.size(), 11u);
  EXPECT_EQ(row[9], "cpu");
  double trained = std::stod(row[10]);  // the steps' time alone (not validation, saving)
  EXPECT_GT(trained, 0);
  EXPECT_LT(trained, 3);
  // The rate as far down its line as the budget is spent (logged after validation).
  EXPECT_NEAR(last_logged_lr(dir) / run.lr, 1 - trained / 3, 0.1);
  run.resume = true;
  // A burst whose start (resuming, the validation set) takes its whole second under load
  // trains nothing, as --stop-after says; the others move the run on.
  int bursts = 1, moved = 1;
  for (; last_logged_lr(dir) > 0 && bursts < 12; ++bursts) {
    train(*agent, run);
    const double before = trained;
    std::tie(row, rows) = last_log_row(dir);
    trained = std::stod(row[10]);
    EXPECT_GE(trained, before);
    if (trained > before) ++moved;
  }
  EXPECT_EQ(last_logged_lr(dir), 0.0);
  EXPECT_GE(moved, 3);  // at most about a second each
  EXPECT_GE(trained, 3);
  EXPECT_LT(trained, 5);
  train(*agent, run);  // the budget is spent: no epoch more
  EXPECT_EQ(last_log_row(dir).second, rows);
}

// A run that trained on a GPU is drawn against its minutes of training wall clock
// (GPU-minutes, column 11), one on the CPU against hours of CPU time (column 9).
TEST(Training, TheCurvesTimeAxisFollowsTheDevice) {
  const std::vector<std::string> cpu{"0,9.1,8.9,0,nan,0.0001,10.0,0.5,20.0,cpu,5.0"};
  const std::vector<std::string> gpu{"0,9.1,8.9,0,nan,0.0001,10.0,0.5,20.0,cpu,5.0",
                                     "1,9.0,8.8,0,nan,0.0001,10.0,0.5,21.0,cuda:0,6.0"};
  EXPECT_NE(training_curve(cpu, "t").script.find("using ($9 / 3600):3"), std::string::npos);
  EXPECT_NE(training_curve(gpu, "t").script.find("using ($11 / 60):3"), std::string::npos);
}

TEST(TTest, StudentCdfMatchesTables) {
  EXPECT_NEAR(student_t_cdf(0.0, 5), 0.5, 1e-12);
  EXPECT_NEAR(student_t_cdf(-2.015, 5), 0.05, 1e-4);   // t_{0.95,5} = 2.015
  EXPECT_NEAR(student_t_cdf(1.645, 1e6), 0.95, 1e-4);  // normal limit
  EXPECT_NEAR(paired_t_test_less({1, 2, 3}, {1, 2, 3}), 1.0, 1e-12);
  EXPECT_LT(paired_t_test_less({1.0, 2.0, 3.1, 3.9}, {2.0, 3.0, 4.0, 5.0}), 0.01);
}

}  // namespace
}  // namespace eie
