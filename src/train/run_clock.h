#pragma once

// A run's clocks, the same on every rank of a job: its CPU time is the ranks' process
// CPU time summed (rank 0 adding what the run spent before this process), and the time
// budget follows rank 0's wall clock.

#include <chrono>

#include "src/parallel/collective.h"
#include "src/train/trainer_options.h"

namespace eie {

class RunClock {
 public:
  // Counts this process's CPU time from now.
  RunClock(const TrainerOptions& options, Collective* collective);

  // The time budget starts now; the run had spent `cpu_seconds` of CPU time when this
  // process started (a resumed run's; 0 for a fresh one).
  void start(double cpu_seconds);
  // The run has spent `cpu_seconds` now: what this process spent since is not counted
  // (validation and saving).
  void pause_until_now(double cpu_seconds);
  // Leaves `elapsed` out of the time budget (drawing pictures).
  void exclude(std::chrono::steady_clock::duration elapsed) { start_ += elapsed; }

  // The run's CPU seconds so far.
  [[nodiscard]] double cpu_spent() const;
  // Training may go on: the CPU budget (if any) is not spent.
  [[nodiscard]] bool cpu_left() const;
  // The fraction of the time budget not yet spent (1 without a budget).
  [[nodiscard]] double budget_left() const;

 private:
  double cpu_budget_;                            // seconds (0: none)
  double time_budget_;                           // seconds of wall clock (0: none)
  Collective* collective_;                       // the job's ranks (or nullptr)
  bool rank_zero_;                               // counts the run's earlier CPU time
  double cpu_at_start_;                          // this process's CPU time at construction
  double cpu_offset_ = 0;                        // added to this process's CPU time
  std::chrono::steady_clock::time_point start_;  // of the time budget (see start())
};

}  // namespace eie
