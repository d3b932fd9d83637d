#pragma once

#include <c10/core/Device.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "src/bench/bench_config.h"

namespace eie {

// One cell of a benchmark table: a row (policy or method) at one size.
struct BenchCell {
  std::vector<double> repetition_means;  // mean cost of each repetition
  std::vector<double> costs;             // every instance's cost, all repetitions
  double seconds = 0;                    // total solving time (wall clock)
  double cpu_seconds = 0;                // the process's CPU time while solving
  double peak_mib = NAN;                 // most memory solving made resident (PeakMemory)
  // A total over the cell (seconds, CPU seconds) per instance solved.
  [[nodiscard]] double per_instance(double total) const {
    return total / static_cast<double>(costs.size());
  }
};

struct BenchResult {
  std::vector<std::string> rows;    // in table order
  std::vector<std::string> blocks;  // row-name prefixes (bases, capacities); one "" if single
  std::vector<std::string> bounds;  // rows that bound the objective: not solutions
  std::map<std::pair<std::string, int64_t>, BenchCell> cells;  // (row, n) -> cell
  std::map<int64_t, double> reference;                         // optional cost per n
};

// Runs every row at every size, the policies on `device`; `on_progress` is told how
// many instances finished.
[[nodiscard]] BenchResult run_bench(const BenchConfig& config, uint64_t seed_offset,
                                    const std::function<void(int64_t)>& on_progress,
                                    const c10::Device& device = c10::kCPU);
[[nodiscard]] int64_t bench_workload(const BenchConfig& config);

// results tables: <dir>/<name>.md and .csv, written atomically.
void write_bench_tables(const BenchConfig& config, const BenchResult& result,
                        const std::string& command, const std::filesystem::path& dir);

}  // namespace eie
