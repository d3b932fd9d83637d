#include "problems/bpp3d/heuristic.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

namespace eie::bpp3d {

Placement lowest_placement(const HeightMap& map, const Box& box, int id,
                           std::vector<int32_t>& scratch) {
  const int L = map.length(), W = map.width();
  const size_t cells = size_t(L) * W;
  map.orientation_heights(box, scratch);
  const auto all = orientations(box);
  const int64_t packed = map.max_height();
  bool found = false;
  std::tuple<int64_t, int64_t, int32_t, int, int> best;  // criteria 1 to 5
  Placement placement;
  for (int o = 0; o < kOrientations; ++o) {
    const auto e = all[o];
    if (e.dx > L || e.dy > W) continue;
    // A repeated extents (equal sides) would only tie with the earlier orientation.
    if (std::find(all.begin(), all.begin() + o, e) != all.begin() + o) continue;
    const int32_t* z = scratch.data() + o * cells;
    // Within one orientation the top is z + dz: the lowest z decides, then the
    // first cell in x-major order holding it (smallest x, then y). Invalid cells
    // hold kInvalid and are never the minimum, since some position is valid.
    const int32_t lowest = *std::min_element(z, z + cells);
    const auto index = size_t(std::find(z, z + cells, lowest) - z);
    const int x = int(index / W), y = int(index % W);
    const int64_t top = int64_t{lowest} + e.dz;
    const auto key = std::make_tuple(std::max(packed, top), top, lowest, x, y);
    if (!found || key < best) {
      found = true;
      best = key;
      placement = Placement{id, x, y, lowest, e.dx, e.dy, e.dz};
    }
  }
  if (!found) {
    throw std::invalid_argument("box " + std::to_string(id) + " fits the " + std::to_string(L) +
                                " x " + std::to_string(W) + " base in no orientation");
  }
  return placement;
}

std::vector<int> volume_order(const BppData& data) {
  std::vector<int> order(data.boxes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return data.boxes[a].volume() > data.boxes[b].volume(); });
  return order;
}

std::vector<Placement> pack_in_order(const BppData& data, const std::vector<int>& order) {
  data.validate();
  const size_t n = data.boxes.size();
  std::vector<bool> seen(n, false);
  if (order.size() != n) {
    throw std::invalid_argument("packing order has " + std::to_string(order.size()) +
                                " entries for " + std::to_string(n) + " boxes");
  }
  for (const int id : order) {
    if (id < 0 || size_t(id) >= n || seen[id]) {
      throw std::invalid_argument("packing order: id " + std::to_string(id) +
                                  " is out of range or repeated");
    }
    seen[id] = true;
  }
  HeightMap map(data.length, data.width);
  std::vector<int32_t> scratch;
  std::vector<Placement> placements;
  placements.reserve(n);
  for (const int id : order) {
    const auto p = lowest_placement(map, data.boxes[id], id, scratch);
    (void)map.place(p.x, p.y, p.dx, p.dy, p.dz);
    placements.push_back(p);
  }
  return placements;
}

std::vector<Placement> heightmap_greedy(const BppData& data) {
  return pack_in_order(data, volume_order(data));
}

std::vector<std::vector<Placement>> heightmap_greedy_all(const std::vector<BppData>& instances) {
  for (size_t i = 0; i < instances.size(); ++i) {
    try {
      instances[i].validate();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("instance " + std::to_string(i) + ": " + e.what());
    }
  }
  std::vector<std::vector<Placement>> placements(instances.size());
  const auto count = static_cast<int64_t>(instances.size());
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < count; ++i) placements[i] = heightmap_greedy(instances[i]);
  return placements;
}

}  // namespace eie::bpp3d
