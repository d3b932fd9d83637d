#pragma once

// A run's log.csv, a row per epoch, and curve.png drawn from it.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "src/train/trainer_options.h"

namespace eie {

// One epoch's row of log.csv.
struct EpochRecord {
  int64_t epoch = 0;               // the epoch (from 0)
  double mean_train_cost = 0;      // mean over its steps of the steps' mean cost
  double val_greedy_cost = 0;      // greedy cost on the held-out set
  bool baseline_replaced = false;  // the rollout baseline's t-test replaced it
  double p_value = 0;              // that t-test's (nan: none)
  double lr = 0;                   // the learning rate at its end
  double seconds = 0;              // wall clock, validation included
  double seconds_per_step = 0;     // wall clock per gradient step
  double cpu_seconds = 0;          // the run's training CPU time so far
};

class TrainingLog {
 public:
  // The log of a run of `options` on `problem` (the curve's title names both).
  TrainingLog(const TrainerOptions& options, const std::string& problem);

  // Keeps the rows of the first `epochs` epochs of out_dir/log.csv (a resumed run
  // rewrites the rest).
  void resume(int64_t epochs);
  // Appends an epoch's row; returns it.
  const std::string& add(const EpochRecord& record);
  // Writes out_dir/log.csv.
  void write() const;
  // Redraws out_dir/curve.png and returns the time that took (budgets leave it out).
  // A failure warns once and ends the drawing: training goes on.
  std::chrono::steady_clock::duration draw_curve();

 private:
  std::filesystem::path dir_;      // the run directory
  std::string title_;              // the curve's
  std::vector<std::string> rows_;  // log.csv without its header
  bool draw_ = true;               // no drawing has failed
};

}  // namespace eie
