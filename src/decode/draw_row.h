#pragma once

// One inverse-CDF draw from a row of probabilities, the one definition that the CPU's
// loop (decode_loop.cpp) and the GPU's kernel (cuda/sample_kernel.cu) both compile, so
// that both devices draw alike bit for bit: sums in double, added in order (additions
// alone: nothing a compiler may fuse), compared in the row's type.

#include <cstdint>

#ifdef __CUDACC__
#define EIE_HOST_DEVICE __host__ __device__
#else
#define EIE_HOST_DEVICE
#endif

namespace eie {

// The first action of `p` [A] whose running sum exceeds uniform x the row's sum, never
// one past the last action with mass (a row without any: its last action).
template <typename T>
EIE_HOST_DEVICE inline int64_t draw_row(const T* p, int64_t A, T uniform) {
  double sum = 0;
  for (int64_t a = 0; a < A; ++a) sum += p[a];
  int64_t last = A - 1;  // the last action with mass, where a draw at the total lands
  for (int64_t a = A - 1; a >= 0; --a) {
    if (p[a] > 0) {
      last = a;
      break;
    }
  }
  const T target = uniform * static_cast<T>(sum);
  double cumulative = 0;
  int64_t a = 0;
  for (; a < A; ++a) {
    cumulative += p[a];
    if (static_cast<T>(cumulative) > target) break;
  }
  return a < last ? a : last;
}

}  // namespace eie

#undef EIE_HOST_DEVICE
