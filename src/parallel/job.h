#pragma once

// Which data-parallel job an `eie train` process belongs to, configured as PyTorch
// users know it: MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK in the environment, or
// --master-addr, --master-port, --world-size and --rank (flags win).

#include <chrono>
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/parallel/gloo_collective.h"

namespace eie {

void add_job_flags(cxxopts::Options& options);

// The job's address, or nothing when no world size is given (or it is 1): training
// alone. Throws std::invalid_argument naming the flag or variable that is wrong.
[[nodiscard]] std::optional<JobAddress> job_address(const cxxopts::ParseResult& r);

// --job-timeout: how long a rank waits for the others before it gives up.
[[nodiscard]] std::chrono::seconds job_timeout(const cxxopts::ParseResult& r);

// --nproc N (0 when not given): run N ranks on this machine, which then start their own
// job (std::invalid_argument when a rank or world size is given too).
[[nodiscard]] int64_t local_ranks(const cxxopts::ParseResult& r);
// The port of a local job: as given (flag or MASTER_PORT), else 0 (a free one).
[[nodiscard]] int local_job_port(const cxxopts::ParseResult& r);
// The command line of a local job's ranks: `argv` (argv[0] the command) without --nproc.
[[nodiscard]] std::vector<std::string> arguments_for_ranks(int argc, char** argv);

}  // namespace eie
