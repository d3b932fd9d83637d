#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "src/agent/agent.h"
#include "src/parallel/collective.h"
#include "src/problem/registry.h"
#include "src/train/epoch_record.h"
#include "src/train/size_curriculum.h"

namespace eie {

// What a sampled solution's cost is compared with: Kool et al.'s greedy rollout of a
// frozen policy, or the mean of the instance's multi-start trajectories (POMO).
enum class BaselineKind { rollout, multistart };
[[nodiscard]] BaselineKind parse_baseline(const std::string& text);
[[nodiscard]] std::string to_string(BaselineKind kind);

struct TrainerOptions {
  int64_t n = 100;                    // training instance size N
  SizeRange sizes;                    // each step's size drawn from here (empty: always N)
  int64_t epochs = 500;               // epochs to reach (a resumed run continues to this)
  int64_t steps = 10;                 // gradient steps per epoch
  int64_t batch = 256;                // instances per step
  double lr = 1e-4;                   // Adam learning rate
  double lr_decay = 1.0;              // lr multiplied by this after each epoch
  bool paper_lr_rule = false;         // EIE paper: lr x 0.95 when the t-test p-value exceeds 0.95
  double time_budget = 0;             // seconds of wall clock (0: none); see train()
  double cpu_budget = 0;              // seconds of training CPU time, over all resumes (0: none)
  double run_budget = 0;              // seconds of training wall clock over all resumes (0: none)
  double stop_after = 0;              // seconds of wall clock per invocation (0: none)
  double max_grad_norm = 1.0;         // gradient-norm clipping
  int64_t val_size = 1000;            // held-out instances for the logged greedy cost
  int64_t baseline_eval_size = 1000;  // held-out instances for the baseline t-test
  int64_t warmup_epochs = 1;          // epochs with the exponential baseline
  double exp_beta = 0.8;              // exponential baseline decay
  double alpha = 0.05;                // t-test significance level
  uint64_t seed = 1234;               // every random draw derives from it
  std::filesystem::path out_dir;      // checkpoint.h5, model.h5, log.csv
  bool resume = false;                // continue from out_dir/checkpoint.h5
  std::filesystem::path resume_from;  // ... or from this copy of it (empty: out_dir's)
  bool resume_with_lr = false;        // a resumed run takes `lr` instead of the checkpoint's
  std::string teacher;                // "METHOD[+IMPROVE]": imitate that heuristic's solutions
  BaselineKind baseline = BaselineKind::rollout;
  int64_t starts = 0;        // multistart: first actions per instance (0: default_starts)
  int64_t augment = 1;       // multistart: symmetric copies per instance (1 or 8)
  bool learn_first = false;  // multistart: also train the policy's own first action
  double bias_lr = 0;        // learned distance betas' rate (0: 100 x lr, or as resumed)
  // Called (on rank 0) with each epoch's log row once the row and the checkpoint are
  // written; false ends the run there, as a finished one. What a front end watches a run
  // with; its time counts against neither budget, and what it throws ends the run.
  std::function<bool(const EpochRecord&)> on_epoch;
};

// Throws std::invalid_argument unless a job of `world_size` ranks can share out the
// work of `options`: an equal share of every batch, at least one instance of each
// held-out set per rank. train() checks it; the CLI checks it before the ranks start.
void check_world_size(const TrainerOptions& options, int64_t world_size);

// Options that make no sense together for `agent` (and the job of `collective`, when
// given); train() throws std::invalid_argument before anything is written.
void check_options(const Agent& agent, const TrainerOptions& options, const Collective* collective);

}  // namespace eie
