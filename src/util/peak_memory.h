#pragma once

namespace eie {

// Memory a piece of work made resident at its peak, beyond what the process
// held when it started (Linux: the VmHWM high-water mark, reset through
// /proc/self/clear_refs, minus VmRSS at the reset).
class PeakMemory {
 public:
  // Starts a measurement. Freed heap goes back to the kernel first (the process
  // keeps it by default, keep_freed_memory): work that reused it would look free.
  void reset();
  // Peak MiB above the resident memory at reset(); NaN where the system cannot
  // reset or report it.
  [[nodiscard]] double mib() const;

 private:
  double baseline_mib_ = -1;  // resident at the last reset(); < 0 if it failed
};

}  // namespace eie
