#include "problems/bpp3d/box.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace eie::bpp3d {

namespace {

std::string describe(const Box& box) {
  return "(" + std::to_string(box.l) + " x " + std::to_string(box.w) + " x " +
         std::to_string(box.h) + ")";
}

void check_base(int length, int width) {
  if (length < 1 || length > kMaxSide) {
    throw std::invalid_argument("base length L = " + std::to_string(length) + " must be in 1.." +
                                std::to_string(kMaxSide));
  }
  if (width < 1 || width > kMaxSide) {
    throw std::invalid_argument("base width W = " + std::to_string(width) + " must be in 1.." +
                                std::to_string(kMaxSide));
  }
  if (int64_t{length} * width > kMaxBaseCells) {
    throw std::invalid_argument("base " + std::to_string(length) + " x " + std::to_string(width) +
                                " has more than " + std::to_string(kMaxBaseCells) +
                                " cells (a height map holds one per unit of area)");
  }
}

}  // namespace

Extents oriented(const Box& box, int o) {
  switch (o) {
    case 0:
      return {box.l, box.w, box.h};
    case 1:
      return {box.w, box.l, box.h};
    case 2:
      return {box.l, box.h, box.w};
    case 3:
      return {box.h, box.l, box.w};
    case 4:
      return {box.w, box.h, box.l};
    case 5:
      return {box.h, box.w, box.l};
    default:
      throw std::out_of_range("orientation " + std::to_string(o) + " is not in 0..5");
  }
}

std::array<Extents, kOrientations> orientations(const Box& box) {
  std::array<Extents, kOrientations> all;
  for (int o = 0; o < kOrientations; ++o) all[o] = oriented(box, o);
  return all;
}

bool fits_base(const Box& box, int length, int width) {
  for (const auto& e : orientations(box)) {
    if (e.dx <= length && e.dy <= width) return true;
  }
  return false;
}

void check_box(const Box& box, size_t index, int length, int width) {
  const std::string name = "box " + std::to_string(index);
  const std::pair<const char*, int> sides[] = {{"l", box.l}, {"w", box.w}, {"h", box.h}};
  for (const auto& [side, value] : sides) {
    if (value < 1 || value > kMaxSide) {
      throw std::invalid_argument(name + ": side " + side + " = " + std::to_string(value) +
                                  " must be in 1.." + std::to_string(kMaxSide));
    }
  }
  if (!fits_base(box, length, width)) {
    throw std::invalid_argument(name + " " + describe(box) + " fits the " + std::to_string(length) +
                                " x " + std::to_string(width) + " base in no orientation");
  }
}

void BppData::validate() const {
  check_base(length, width);
  if (boxes.empty()) throw std::invalid_argument("n = 0: an instance needs at least one box");
  int64_t tallest = 0;
  for (size_t i = 0; i < boxes.size(); ++i) {
    check_box(boxes[i], i, length, width);
    tallest += std::max({boxes[i].l, boxes[i].w, boxes[i].h});
  }
  if (tallest > std::numeric_limits<int32_t>::max()) {
    throw std::invalid_argument("the boxes' longest sides sum to " + std::to_string(tallest) +
                                ", more than the 32-bit height limit");
  }
}

int64_t BppData::total_volume() const {
  int64_t total = 0;
  for (const auto& box : boxes) total += box.volume();
  return total;
}

Protocol eie_protocol(int length, int width) { return {length, width, 10, 50}; }

Protocol attend2pack_protocol() { return {100, 100, 20, 80}; }

BppData random_instance(const Protocol& protocol, int n, std::mt19937_64& rng) {
  check_base(protocol.length, protocol.width);
  if (n < 1) throw std::invalid_argument("n = " + std::to_string(n) + " must be at least 1");
  if (protocol.min_side < 1 || protocol.min_side > protocol.max_side ||
      protocol.max_side > std::min(protocol.length, protocol.width)) {
    throw std::invalid_argument(
        "side range " + std::to_string(protocol.min_side) + ".." +
        std::to_string(protocol.max_side) + " must be non-empty, start at 1 or more and fit the " +
        std::to_string(protocol.length) + " x " + std::to_string(protocol.width) + " base");
  }
  const auto span = static_cast<uint64_t>(protocol.max_side - protocol.min_side + 1);
  const auto draw = [&] { return protocol.min_side + static_cast<int>(rng() % span); };
  BppData data{protocol.length, protocol.width, {}};
  data.boxes.reserve(n);
  for (int i = 0; i < n; ++i) {
    Box box;
    box.l = draw();
    box.w = draw();
    box.h = draw();
    data.boxes.push_back(box);
  }
  data.validate();
  return data;
}

BppData random_instance(const Protocol& protocol, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return random_instance(protocol, n, rng);
}

}  // namespace eie::bpp3d
