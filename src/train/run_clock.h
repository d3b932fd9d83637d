#pragma once

// A run's clocks, the same on every rank of a job: its CPU time is the ranks' process
// CPU time summed (rank 0 adding what the run spent before this process); its training
// wall clock, the time budget and the invocation's limit follow rank 0's wall clock.

#include <chrono>

#include "src/parallel/collective.h"
#include "src/train/trainer_options.h"

namespace eie {

class RunClock {
 public:
  // Counts this process's CPU time from now.
  RunClock(const TrainerOptions& options, Collective* collective);

  // The time budget and the invocation start now; the run had spent `cpu_seconds` of CPU
  // time and `train_seconds` of training wall clock when this process started (a resumed
  // run's; 0 for a fresh one).
  void start(double cpu_seconds, double train_seconds);
  // The training wall clock stops (the epoch's steps are done): train_spent() and the run
  // budget stay where they are through validation and saving, so that the rate logged
  // and the time checkpointed agree on whether the budget is spent.
  void stop_steps();
  // The run has spent `cpu_seconds` now: what this process spent since is not counted
  // (validation and saving); the training wall clock runs again from where stop_steps()
  // left it.
  void pause_until_now(double cpu_seconds);
  // Leaves `elapsed` out of the time budget (drawing pictures).
  void exclude(std::chrono::steady_clock::duration elapsed) { start_ += elapsed; }

  // The run's CPU seconds so far.
  [[nodiscard]] double cpu_spent() const;
  // The run's training wall clock so far.
  [[nodiscard]] double train_spent() const;
  // Training may go on: the CPU budget (if any) is not spent.
  [[nodiscard]] bool cpu_left() const;
  // The fraction of the time budget, or of the run budget, not yet spent (1 without one).
  [[nodiscard]] double budget_left() const;
  // This invocation may go on: its --stop-after (if any) is not reached.
  [[nodiscard]] bool invocation_left() const;

 private:
  double cpu_budget_;                            // seconds (0: none)
  double time_budget_;                           // seconds of wall clock (0: none)
  double run_budget_;                            // seconds of training wall clock (0: none)
  double stop_after_;                            // seconds of this invocation (0: none)
  Collective* collective_;                       // the job's ranks (or nullptr)
  bool rank_zero_;                               // counts the run's earlier CPU time
  double cpu_at_start_;                          // this process's CPU time at construction
  double cpu_offset_ = 0;                        // added to this process's CPU time
  double train_offset_ = 0;                      // training wall clock before steps_start_
  bool steps_running_ = true;                    // the training wall clock runs
  std::chrono::steady_clock::time_point start_;  // of the time budget (see start())
  std::chrono::steady_clock::time_point invocation_start_;  // start()
  std::chrono::steady_clock::time_point steps_start_;       // counted from here on
};

}  // namespace eie
