#pragma once

// A run's log.csv, a row per epoch, and curve.png drawn from it.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "src/train/epoch_record.h"
#include "src/train/trainer_options.h"

namespace eie {

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
