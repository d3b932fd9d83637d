#include "src/train/run_clock.h"

#include <algorithm>

#include "src/util/cpu_time.h"

namespace eie {

RunClock::RunClock(const TrainerOptions& o, Collective* collective)
    : cpu_budget_(o.cpu_budget),
      time_budget_(o.time_budget),
      collective_(collective),
      rank_zero_(!collective || collective->rank() == 0),
      cpu_at_start_(process_cpu_seconds()) {}

void RunClock::start(double cpu_seconds) {
  cpu_offset_ = (rank_zero_ ? cpu_seconds : 0) - cpu_at_start_;
  start_ = std::chrono::steady_clock::now();
}

void RunClock::pause_until_now(double cpu_seconds) {
  cpu_offset_ = (rank_zero_ ? cpu_seconds : 0) - process_cpu_seconds();
}

double RunClock::cpu_spent() const {
  return sum_over_ranks(cpu_offset_ + process_cpu_seconds(), collective_);
}

bool RunClock::cpu_left() const { return cpu_budget_ <= 0 || cpu_spent() < cpu_budget_; }

double RunClock::budget_left() const {
  if (time_budget_ <= 0) return 1.0;
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
  return from_rank_zero(std::max(0.0, 1.0 - spent.count() / time_budget_), collective_);
}

}  // namespace eie
