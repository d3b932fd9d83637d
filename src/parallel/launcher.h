#pragma once

// `eie train --nproc N`: the ranks of a data-parallel job on this machine.

#include <cstdint>
#include <string>
#include <vector>

namespace eie {

// Runs this executable with `arguments` (after argv[0]) as `ranks` processes: rank r
// gets RANK=r, WORLD_SIZE, MASTER_ADDR=127.0.0.1 and MASTER_PORT (`port`, or a free
// one when 0) in its environment. Their output passes through line by line with a
// "[rank r] " prefix. When a rank fails, the others are ended (SIGTERM, then SIGKILL
// after 5 s). Returns 0 when every rank succeeded; otherwise prints one line naming
// the first rank that failed and returns 1. No shell is involved.
[[nodiscard]] int launch_local_ranks(int64_t ranks, const std::vector<std::string>& arguments,
                                     int port);

}  // namespace eie
