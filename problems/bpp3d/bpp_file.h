#pragma once

// Plain-text O3BPP files.
//
// Instance (.bpp): a line `L W n`, then n lines `l w h`, all positive integers;
// lines starting with '#' (after blanks) and blank lines are ignored. Nothing else
// is accepted: extra tokens, fewer or more than n box lines, non-integers, sides
// < 1 and boxes that fit the base in no orientation are errors.
//
// Placements: a line `L W H` (H = packed height), then one line per box in packing
// order, `id x y z l w h`, with the 0-based id of the box in its instance file, its
// lowest back-left corner and its sides as placed along x, y and z. Same comment
// and blank-line rules.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/packing.h"

namespace eie::bpp3d {

// Throws std::invalid_argument as "FILE:LINE: what is wrong"; the result validates.
[[nodiscard]] BppData read_bpp(const std::filesystem::path& path);
// The same for text whose errors are reported against `origin`.
[[nodiscard]] BppData parse_bpp(const std::string& text, const std::string& origin);
// Validates, then writes atomically (temporary file renamed over `path`).
void write_bpp(const std::filesystem::path& path, const BppData& data);

// A placements file as read, before any check against its instance.
struct PackedBin {
  int length = 0;                     // L of the header
  int width = 0;                      // W of the header
  int64_t height = 0;                 // H of the header, equal to max(z + dz)
  std::vector<Placement> placements;  // in file (packing) order
};

// Checks the packing (check_packing), then writes it atomically.
void write_placements(const std::filesystem::path& path, const BppData& data,
                      const std::vector<Placement>& placements);
// Strict reader: "FILE:LINE: what is wrong" (std::invalid_argument) for a malformed
// line, negative coordinates, sides < 1, no placement lines, or a header H that is
// not max(z + dz). Feasibility against the instance is check_packing's job.
[[nodiscard]] PackedBin read_placements(const std::filesystem::path& path);
[[nodiscard]] PackedBin parse_placements(const std::string& text, const std::string& origin);

}  // namespace eie::bpp3d
