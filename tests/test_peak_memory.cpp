// The per-cell peak memory of benchmark tables: a measurement sees memory made
// resident inside it, not what was resident before, and work that reuses freed
// heap is not taken for free.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "src/util/peak_memory.h"

namespace eie {
namespace {

TEST(PeakMemory, CountsWhatAPieceOfWorkMakesResident) {
  PeakMemory peak;
  peak.reset();
  if (std::isnan(peak.mib())) {
    GTEST_SKIP() << "this system cannot reset the resident high-water mark (/proc/self/clear_refs)";
  }
  const auto touch_256_mib = [&] {
    const std::vector<char> block(size_t{256} << 20, 1);  // written: resident
    return peak.mib();
  };
  EXPECT_GE(touch_256_mib(), 250);
  peak.reset();  // the block is freed but kept by the heap (keep_freed_memory)
  EXPECT_LT(peak.mib(), 50);
  EXPECT_GE(touch_256_mib(), 250) << "reusing freed heap must not look free";
}

}  // namespace
}  // namespace eie
