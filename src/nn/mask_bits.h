#pragma once

// Masking in the CPU kernels (attention_kernels, pointer_kernels; no LibTorch).

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace eie::nn {

// out[e] = -inf where masked[e], in bit operations: the compiler vectorises them, where the
// plain select became a branch per element (perf: most of attention_scores' own time).
template <typename T>
void mask_scores(T* out, const bool* masked, int64_t count) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static_assert(sizeof(Bits) == sizeof(T));
  const T minus_inf = -std::numeric_limits<T>::infinity();
  Bits inf_bits;
  std::memcpy(&inf_bits, &minus_inf, sizeof(T));
  // Read as bytes (0 or 1): a conversion from bool is what the vectoriser refuses.
  const auto* flags = reinterpret_cast<const unsigned char*>(masked);
#pragma omp simd
  for (int64_t e = 0; e < count; ++e) {
    Bits bits;
    std::memcpy(&bits, out + e, sizeof(T));
    const Bits keep = static_cast<Bits>(flags[e]) - 1;  // all ones where not masked
    bits = (bits & keep) | (inf_bits & ~keep);
    std::memcpy(out + e, &bits, sizeof(T));
  }
}

}  // namespace eie::nn
