#pragma once

// One offline 3D bin packing (O3BPP) instance in plain C++ (no tensors): boxes,
// their orientations, validation and the seeded generators of both protocols.

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace eie::bpp3d {

// Largest accepted side of a box or of the base.
inline constexpr int kMaxSide = 100000;
// Largest accepted base area L W (height maps and position choices have a cell per unit).
inline constexpr int64_t kMaxBaseCells = int64_t{1} << 24;

// A box with positive integer sides, as given (before any rotation).
struct Box {
  int l = 0;  // first side
  int w = 0;  // second side
  int h = 0;  // third side

  [[nodiscard]] int64_t volume() const { return int64_t{l} * w * h; }
};

// A box's extents once rotated: along x, along y and along z (vertical).
struct Extents {
  int dx = 0;  // along the base length (x)
  int dy = 0;  // along the base width (y)
  int dz = 0;  // vertical

  friend bool operator==(const Extents& a, const Extents& b) {
    return a.dx == b.dx && a.dy == b.dy && a.dz == b.dz;
  }
  friend bool operator!=(const Extents& a, const Extents& b) { return !(a == b); }
};

inline constexpr int kOrientations = 6;

// Orientation o of a box (l, w, h), as (dx, dy, dz); the vertical side is h for
// o = 0, 1, w for o = 2, 3 and l for o = 4, 5:
//   0: (l, w, h)   1: (w, l, h)   2: (l, h, w)   3: (h, l, w)   4: (w, h, l)   5: (h, w, l)
// Throws std::out_of_range unless 0 <= o < 6.
[[nodiscard]] Extents oriented(const Box& box, int o);
// All six, in the order above (repeated extents when sides are equal).
[[nodiscard]] std::array<Extents, kOrientations> orientations(const Box& box);
// True when some orientation of the box has dx <= length and dy <= width.
[[nodiscard]] bool fits_base(const Box& box, int length, int width);

// An instance: n boxes for one bin of base length x width and open height.
struct BppData {
  int length = 0;          // L: base extent along x
  int width = 0;           // W: base extent along y
  std::vector<Box> boxes;  // n boxes; box i has id i (0-based)

  // Throws std::invalid_argument naming the field and value unless
  // 0 < L, W <= kMaxSide, n >= 1, every side is in 1..kMaxSide, every box fits
  // the base in at least one orientation, and the sum of the boxes' longest sides
  // (the tallest possible packing) fits in int32.
  void validate() const;

  [[nodiscard]] int64_t total_volume() const;
};

// Throws std::invalid_argument like BppData::validate for box `index` alone, e.g.
// "box 7 (60 x 130 x 70) fits the 120 x 100 base in no orientation".
void check_box(const Box& box, size_t index, int length, int width);

// How random instances are drawn: a base and the range of the box sides.
struct Protocol {
  int length = 0;    // base extent along x
  int width = 0;     // base extent along y
  int min_side = 0;  // smallest side, inclusive
  int max_side = 0;  // largest side, inclusive
};

// EIE paper: sides U{10..50} on a given base (paper: 120 x 100, 140 x 110, 160 x 120).
[[nodiscard]] Protocol eie_protocol(int length = 120, int width = 100);
// attend2pack: sides U{20..80} on a 100 x 100 base.
[[nodiscard]] Protocol attend2pack_protocol();

// n boxes drawn in order box 0, 1, ..., each as l, then w, then h; a side is
// min_side + (rng() mod (max_side - min_side + 1)) with one 64-bit draw, so the
// stream is the same with every standard library. Throws std::invalid_argument
// for n < 1, an empty side range, min_side < 1 or max_side > min(length, width)
// (every drawn box must fit the base).
[[nodiscard]] BppData random_instance(const Protocol& protocol, int n, std::mt19937_64& rng);
// The same with a fresh std::mt19937_64(seed).
[[nodiscard]] BppData random_instance(const Protocol& protocol, int n, uint64_t seed);

}  // namespace eie::bpp3d
