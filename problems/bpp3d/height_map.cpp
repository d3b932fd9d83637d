#include "problems/bpp3d/height_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

// The sliding-maximum kernels are compiled for AVX2 and for the x86-64 baseline
// (SSE2), picked at load time; other targets get one portable version.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EIE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EIE_VECTOR_CLONES
#endif

namespace eie::bpp3d {

namespace {

// max(a, b) for a, b >= 0 without a branch or a MAX instruction, so that loops of it
// vectorise with plain SSE2 (which has no 32-bit integer max); a - b cannot overflow.
inline int32_t max_nonneg(int32_t a, int32_t b) {
  const int32_t d = a - b;
  return a - (d & (d >> 31));
}

// Sliding maximum along y (the contiguous direction) by doubling: dst[x * W + y] =
// max of src[x * W + y .. + b) for every row x and y <= W - b; later cells of a row
// are left with partial windows. A window of 2s is the maximum of two windows of s;
// the last step overlaps two windows of s >= b / 2. In place after the first step:
// each pass reads ahead of where it writes.
EIE_VECTOR_CLONES void max_along_y(const int32_t* src, int32_t* dst, int L, int W, int b) {
  for (int x = 0; x < L; ++x) {
    const int32_t* __restrict in = src + size_t(x) * W;
    int32_t* v = dst + size_t(x) * W;
    if (b == 1) {
      std::copy(in, in + W, v);
      continue;
    }
    {
      int32_t* __restrict out = v;
      const int last = W - 2;
#pragma omp simd
      for (int y = 0; y <= last; ++y) out[y] = max_nonneg(in[y], in[y + 1]);
    }
    for (int have = 2; have < b;) {
      const int shift = std::min(have, b - have);
      const int last = W - (have + shift);
#pragma omp simd
      for (int y = 0; y <= last; ++y) v[y] = max_nonneg(v[y], v[y + shift]);
      have += shift;
    }
  }
}

// Sliding maximum along x in place, by doubling over whole rows: on exit
// v[x * W + y] = max of v[(x + i) * W + y] for i < a, for x <= L - a and y < lanes.
EIE_VECTOR_CLONES void max_along_x(int32_t* v, int L, int W, int lanes, int a) {
  for (int have = 1; have < a;) {
    const int shift = std::min(have, a - have);
    const int last = L - (have + shift);
    for (int x = 0; x <= last; ++x) {
      int32_t* __restrict dst = v + size_t(x) * W;
      const int32_t* __restrict src = v + size_t(x + shift) * W;
#pragma omp simd
      for (int y = 0; y < lanes; ++y) dst[y] = max_nonneg(dst[y], src[y]);
    }
    have += shift;
  }
}

// Marks the positions where footprint a x b does not fit with HeightMap::kInvalid.
EIE_VECTOR_CLONES void mark_invalid(int32_t* out, int L, int W, int a, int b) {
  for (int x = 0; x < L; ++x) {
    int32_t* row = out + size_t(x) * W;
    const int first = x > L - a ? 0 : W - b + 1;
#pragma omp simd
    for (int y = first; y < W; ++y) row[y] = HeightMap::kInvalid;
  }
}

}  // namespace

HeightMap::HeightMap(int length, int width) : length_(length), width_(width) {
  if (length < 1 || width < 1) {
    throw std::invalid_argument("height map " + std::to_string(length) + " x " +
                                std::to_string(width) + ": both sides must be at least 1");
  }
  cells_.assign(size_t(length) * width, 0);
}

bool HeightMap::fits(int x, int y, int a, int b) const {
  return a >= 1 && b >= 1 && x >= 0 && y >= 0 && x <= length_ - a && y <= width_ - b;
}

int32_t HeightMap::resting_height(int x, int y, int a, int b) const {
  if (!fits(x, y, a, b)) {
    throw std::out_of_range("footprint " + std::to_string(a) + " x " + std::to_string(b) + " at (" +
                            std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                            std::to_string(length_) + " x " + std::to_string(width_) + " base");
  }
  int32_t z = 0;
  for (int i = x; i < x + a; ++i) {
    const int32_t* row = cells_.data() + size_t(i) * width_;
    for (int j = y; j < y + b; ++j) z = std::max(z, row[j]);
  }
  return z;
}

int32_t HeightMap::place(int x, int y, int a, int b, int c) {
  const int32_t z = resting_height(x, y, a, b);
  if (c < 1 || z > std::numeric_limits<int32_t>::max() - c) {
    throw std::invalid_argument("box height " + std::to_string(c) + " on top of " +
                                std::to_string(z) + ": must be >= 1 and stay in int32");
  }
  for (int i = x; i < x + a; ++i) {
    int32_t* row = cells_.data() + size_t(i) * width_;
    std::fill(row + y, row + y + b, z + c);
  }
  max_height_ = std::max(max_height_, z + c);
  return z;
}

void HeightMap::reset() {
  std::fill(cells_.begin(), cells_.end(), 0);
  max_height_ = 0;
}

void HeightMap::resulting_heights(int a, int b, int32_t* out) const {
  if (a < 1 || a > length_ || b < 1 || b > width_) {
    throw std::invalid_argument("footprint " + std::to_string(a) + " x " + std::to_string(b) +
                                " does not fit the " + std::to_string(length_) + " x " +
                                std::to_string(width_) + " base");
  }
  const int L = length_, W = width_;
  max_along_y(cells_.data(), out, L, W, b);
  max_along_x(out, L, W, W - b + 1, a);
  mark_invalid(out, L, W, a, b);
}

void HeightMap::orientation_heights(const Box& box, int32_t* out) const {
  const int L = length_, W = width_;
  const size_t cells = cells_.size();
  const auto all = orientations(box);
  // Orientations o and partner[o] have the same dy: {0, 5} (w), {1, 3} (l), {2, 4} (h).
  constexpr int partner[kOrientations] = {5, 3, 4, 1, 2, 0};
  for (int o = 0; o < kOrientations; ++o) {
    const auto [a, b, c] = all[o];
    int32_t* slice = out + o * cells;
    if (a > L || b > W) {
      std::fill(slice, slice + cells, kInvalid);
      continue;
    }
    const int p = partner[o];
    const bool shared = all[p].dx <= L;  // the partner fits too: one pass along y for both
    if (!shared || p > o) max_along_y(cells_.data(), slice, L, W, b);
    if (shared && p > o) std::copy(slice, slice + cells, out + p * cells);
    max_along_x(slice, L, W, W - b + 1, a);
    mark_invalid(slice, L, W, a, b);
  }
}

void HeightMap::orientation_heights(const Box& box, std::vector<int32_t>& out) const {
  out.resize(kOrientations * cells_.size());
  orientation_heights(box, out.data());
}

void HeightMap::resulting_heights(int a, int b, std::vector<int32_t>& out) const {
  out.resize(cells_.size());
  resulting_heights(a, b, out.data());
}

void HeightMap::resulting_tops(int a, int b, int c, std::vector<int32_t>& out) const {
  resulting_heights(a, b, out);
  for (auto& v : out) {
    if (v != kInvalid) v += c;
  }
}

}  // namespace eie::bpp3d
