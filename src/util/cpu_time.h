#pragma once

// CPU time as opposed to wall time: on a shared machine the other processes change
// how long work takes, much less how much CPU it needs.

namespace eie {

// User plus system CPU time of this process so far (all its threads), in seconds.
[[nodiscard]] double process_cpu_seconds();

}  // namespace eie
