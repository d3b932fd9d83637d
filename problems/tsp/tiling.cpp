#include "tsp/tiling.h"

#include <map>

#include "tsp/tensors.h"
#include "tsp/tiles.h"

namespace eie::tsp {

TspTiling::TspTiling(const Instances& instances, int64_t max_size, Domain domain)
    : cities_(cities_of(instances)), device_(instances.at("coords").device()) {
  std::map<int64_t, std::vector<float>> coords_by_size;  // tile size -> flat [count, size, 2]
  std::map<int64_t, int64_t> group_of_size;
  // Parts live where generated instances of the domain live.
  const double scale = domain == Domain::unit ? 1.0 : 2.0, shift = domain == Domain::unit ? 0.0 : 1.0;
  for (const auto& cities : cities_) {
    tiles_.push_back(spatial_tiles(cities, max_size));
    auto& slots = slots_.emplace_back();
    for (const auto& tile : tiles_.back()) {
      const auto size = static_cast<int64_t>(tile.size());
      std::vector<Point> points;
      for (const int64_t i : tile) points.push_back(cities[i]);
      auto& flat = coords_by_size[size];
      // `group` holds the tile size until the groups are numbered below.
      slots.push_back({size, static_cast<int64_t>(flat.size()) / (2 * size)});
      for (const auto& p : fit_unit_square(points)) {
        flat.push_back(static_cast<float>(p.x * scale - shift));
        flat.push_back(static_cast<float>(p.y * scale - shift));
      }
    }
  }
  for (auto& [size, flat] : coords_by_size) {
    group_of_size[size] = static_cast<int64_t>(parts_.size());
    const auto count = static_cast<int64_t>(flat.size()) / (2 * size);
    parts_.emplace_back(std::map<std::string, torch::Tensor>{
        {"coords", torch::from_blob(flat.data(), {count, size, 2}, torch::kFloat).clone()
                        .to(device_, instances.at("coords").scalar_type())}});
  }
  for (auto& slots : slots_) {
    for (auto& slot : slots) slot.group = group_of_size.at(slot.group);
  }
}

torch::Tensor TspTiling::join(const std::vector<torch::Tensor>& part_actions) const {
  std::vector<std::vector<Tour>> group_tours;
  for (const auto& actions : part_actions) group_tours.push_back(tours_of(actions));
  const auto B = static_cast<int64_t>(cities_.size());
  std::vector<Tour> joined(B);
#pragma omp parallel for schedule(dynamic)
  for (int64_t b = 0; b < B; ++b) {
    std::vector<Tour> tile_tours;
    for (size_t t = 0; t < tiles_[b].size(); ++t) {
      const auto& slot = slots_[b][t];
      Tour tour;
      for (const int64_t local : group_tours[slot.group][slot.row]) tour.push_back(tiles_[b][t][local]);
      tile_tours.push_back(std::move(tour));
    }
    joined[b] = join_tile_tours(cities_[b], tile_tours);
  }
  return tensor_of(joined).to(device_);
}

}  // namespace eie::tsp
