#pragma once

#include <cstdint>
#include <string>

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
  std::string device;              // where it trained ("cpu", "cuda:0")
  double train_seconds = 0;        // the run's training wall clock so far (all resumes)
};

}  // namespace eie
