#pragma once

#include <cstdint>

namespace eie {

// splitmix64's finaliser: consecutive inputs give unrelated outputs, so a seed mixed
// with a rank, an epoch or a step numbers streams that do not overlap.
[[nodiscard]] inline uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace eie
