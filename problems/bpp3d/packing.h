#pragma once

// A packing as a list of placed boxes, its independent feasibility check (no
// height map involved) and its measures: packed height, load rate, volume bound.

#include <cstdint>
#include <vector>

#include "problems/bpp3d/box.h"

namespace eie::bpp3d {

// One box placed in the bin: its lowest back-left corner and its extents as placed.
struct Placement {
  int box = 0;  // id of the box, 0-based in instance order
  int x = 0;    // corner along the base length, 0 <= x <= L - dx
  int y = 0;    // corner along the base width, 0 <= y <= W - dy
  int z = 0;    // bottom face height, >= 0
  int dx = 0;   // extent along x
  int dy = 0;   // extent along y
  int dz = 0;   // extent along z (vertical)

  friend bool operator==(const Placement& a, const Placement& b) {
    return a.box == b.box && a.x == b.x && a.y == b.y && a.z == b.z && a.dx == b.dx &&
           a.dy == b.dy && a.dz == b.dz;
  }
};

// Placements as rows of 7 int32 (box, x, y, z, dx, dy, dz), as front ends hold them, and back.
inline constexpr int64_t kPlacementColumns = 7;
void placement_rows(const std::vector<Placement>& placements, int32_t* out);
[[nodiscard]] std::vector<Placement> placements_of_rows(const int32_t* rows, int64_t count);

// Returns the packed height H = max(z + dz). Throws std::logic_error naming the
// box unless every box of `data` is placed exactly once, with (dx, dy, dz) one of
// its orientations, inside the base (0 <= x, x + dx <= L; 0 <= y, y + dy <= W),
// with z >= 0, and no two boxes overlap (positive common volume; touching faces
// are fine). Does not require boxes to be supported. O(n log n + overlapping
// x-ranges): boxes are swept in order of x.
int64_t check_packing(const BppData& data, const std::vector<Placement>& placements);

// Total box volume / (L * W * height), in (0, 1] for a feasible packing of that height.
[[nodiscard]] double load_rate(const BppData& data, int64_t height);

// ceil(total volume / (L * W)): no packing is lower.
[[nodiscard]] int64_t volume_bound(const BppData& data);

}  // namespace eie::bpp3d
