// The trainer's on_epoch hook: it sees each saved row, false ends the run with its
// checkpoint (which a resumed run continues), and what it throws ends the run.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/agent/policy_registry.h"
#include "src/problem/registry.h"
#include "src/train/trainer.h"
#include "tests/test_support.h"

namespace eie {
namespace {

TrainerOptions tiny_run(const std::filesystem::path& dir) {
  TrainerOptions t;
  t.n = 8;
  t.epochs = 5;
  t.steps = 1;
  t.batch = 4;
  t.val_size = 4;
  t.baseline_eval_size = 4;
  t.seed = 3;
  t.out_dir = dir;
  return t;
}

std::unique_ptr<Agent> tiny_agent() {
  return make_agent(make_problem("tsp"), test::small_network(16, 2, 16, 1), 8);
}

int64_t log_rows(const std::filesystem::path& dir) {
  std::ifstream log(dir / "log.csv");
  int64_t lines = 0;
  for (std::string line; std::getline(log, line);) ++lines;
  return lines - 1;  // the header
}

TEST(EpochHook, FalseEndsTheRunAfterItsRowAndCheckpoint) {
  const auto dir = test::scratch_dir("epoch-hook-stop");
  auto o = tiny_run(dir);
  std::vector<EpochRecord> seen;
  o.on_epoch = [&](const EpochRecord& row) {
    EXPECT_EQ(log_rows(dir), row.epoch + 1) << "the row is written before the hook sees it";
    EXPECT_TRUE(std::filesystem::exists(dir / "checkpoint.h5"));
    seen.push_back(row);
    return row.epoch < 1;  // stop after epoch 1
  };
  auto agent = tiny_agent();
  train(*agent, o);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].epoch, 1);
  EXPECT_EQ(log_rows(dir), 2);

  // The checkpoint is the stopped run's: a resumed run starts at epoch 2.
  o.resume = true;
  o.resume_from = dir / "checkpoint.h5";
  o.epochs = 3;
  std::vector<int64_t> resumed;
  o.on_epoch = [&](const EpochRecord& row) {
    resumed.push_back(row.epoch);
    return true;
  };
  auto again = tiny_agent();
  train(*again, o);
  EXPECT_EQ(resumed, std::vector<int64_t>{2});
  EXPECT_EQ(log_rows(dir), 3);
}

TEST(EpochHook, WhatItThrowsEndsTheRun) {
  const auto dir = test::scratch_dir("epoch-hook-throws");
  auto o = tiny_run(dir);
  o.on_epoch = [](const EpochRecord&) -> bool { throw std::runtime_error("stop here"); };
  auto agent = tiny_agent();
  EXPECT_THROW(
      {
        try {
          train(*agent, o);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "stop here");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(log_rows(dir), 1);
}

}  // namespace
}  // namespace eie
