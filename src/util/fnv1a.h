#pragma once

#include <cstddef>
#include <cstdint>

namespace eie {

// FNV-1a, 64 bits: a stable hash of bytes (the same on every build and machine), for
// fingerprints and file names derived from content.
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

[[nodiscard]] inline uint64_t fnv1a(uint64_t hash, const void* data, size_t bytes) {
  constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * kFnvPrime;
  return hash;
}

}  // namespace eie
