#include "src/train/run_clock.h"

#include <algorithm>

#include "src/util/cpu_time.h"

namespace eie {

RunClock::RunClock(const TrainerOptions& o, Collective* collective)
    : cpu_budget_(o.cpu_budget),
      time_budget_(o.time_budget),
      run_budget_(o.run_budget),
      stop_after_(o.stop_after),
      collective_(collective),
      rank_zero_(!collective || collective->rank() == 0),
      cpu_at_start_(process_cpu_seconds()) {}

void RunClock::start(double cpu_seconds, double train_seconds) {
  cpu_offset_ = (rank_zero_ ? cpu_seconds : 0) - cpu_at_start_;
  train_offset_ = train_seconds;
  start_ = invocation_start_ = steps_start_ = std::chrono::steady_clock::now();
}

void RunClock::stop_steps() {
  train_offset_ = train_spent();
  steps_running_ = false;
}

void RunClock::pause_until_now(double cpu_seconds) {
  cpu_offset_ = (rank_zero_ ? cpu_seconds : 0) - process_cpu_seconds();
  steps_start_ = std::chrono::steady_clock::now();
  steps_running_ = true;
}

double RunClock::cpu_spent() const {
  return sum_over_ranks(cpu_offset_ + process_cpu_seconds(), collective_);
}

double RunClock::train_spent() const {
  const std::chrono::duration<double> since = std::chrono::steady_clock::now() - steps_start_;
  return from_rank_zero(train_offset_ + (steps_running_ ? since.count() : 0), collective_);
}

bool RunClock::cpu_left() const { return cpu_budget_ <= 0 || cpu_spent() < cpu_budget_; }

double RunClock::budget_left() const {
  if (run_budget_ > 0) return std::max(0.0, 1.0 - train_spent() / run_budget_);
  if (time_budget_ <= 0) return 1.0;
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
  return from_rank_zero(std::max(0.0, 1.0 - spent.count() / time_budget_), collective_);
}

bool RunClock::invocation_left() const {
  if (stop_after_ <= 0) return true;
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - invocation_start_;
  return from_rank_zero(spent.count() < stop_after_ ? 1.0 : 0.0, collective_) > 0;
}

}  // namespace eie
