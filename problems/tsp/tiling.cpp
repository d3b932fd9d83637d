#include "problems/tsp/tiling.h"

#include <map>

#include "problems/tsp/tensors.h"
#include "problems/tsp/tiles.h"

namespace eie::tsp {

TspTiling::TspTiling(const Instances& instances, int64_t max_size, Domain domain)
    : cities_(cities_of(instances)), device_(instances.at("coords").device()) {
  std::map<int64_t, std::vector<std::vector<Point>>> by_size;  // tile size -> tiles
  // Parts live where generated instances of the domain live.
  const double scale = domain == Domain::unit ? 1.0 : 2.0, shift = domain == Domain::unit ? 0.0 : 1.0;
  for (const auto& cities : cities_) {
    tiles_.push_back(spatial_tiles(cities, max_size));
    auto& slots = slots_.emplace_back();
    for (const auto& tile : tiles_.back()) {
      std::vector<Point> points;
      for (const int64_t i : tile) points.push_back(cities[i]);
      for (auto& p : points = fit_unit_square(points)) p = {p.x * scale - shift, p.y * scale - shift};
      auto& group = by_size[static_cast<int64_t>(tile.size())];
      slots.push_back({static_cast<int64_t>(tile.size()), static_cast<int64_t>(group.size())});
      group.push_back(std::move(points));
    }
  }
  for (const auto& [size, group] : by_size) {
    parts_.emplace_back(std::map<std::string, torch::Tensor>{
        {"coords", coords_tensor(group).to(device_, instances.at("coords").scalar_type())}});
  }
}

torch::Tensor TspTiling::join(const std::vector<torch::Tensor>& part_actions) const {
  std::map<int64_t, std::vector<Tour>> tours_by_size;
  for (size_t g = 0; g < parts_.size(); ++g) {
    tours_by_size[parts_[g].at("coords").size(1)] = tours_of(part_actions[g]);
  }
  const auto B = static_cast<int64_t>(cities_.size());
  std::vector<Tour> joined(B);
#pragma omp parallel for schedule(dynamic)
  for (int64_t b = 0; b < B; ++b) {
    std::vector<Tour> tile_tours;
    for (size_t t = 0; t < tiles_[b].size(); ++t) {
      const auto& slot = slots_[b][t];
      Tour tour;
      for (const int64_t local : tours_by_size.at(slot.size)[slot.row]) {
        tour.push_back(tiles_[b][t][local]);
      }
      tile_tours.push_back(std::move(tour));
    }
    joined[b] = join_tile_tours(cities_[b], tile_tours);
  }
  return tensor_of(joined).to(device_);
}

}  // namespace eie::tsp
