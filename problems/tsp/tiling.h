#pragma once

#include <cstdint>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/problem.h"
#include "src/problem/tiling.h"

namespace eie::tsp {

// TSP instances cut by spatial_tiles; each tile becomes an instance of its own,
// rescaled (aspect-preserving) into the domain the policy was trained on, and the
// tiles' tours are joined by join_tile_tours.
class TspTiling final : public Tiling {
 public:
  TspTiling(const Instances& instances, int64_t max_size, Domain domain);

  [[nodiscard]] const std::vector<Instances>& parts() const override { return parts_; }
  [[nodiscard]] torch::Tensor join(const std::vector<torch::Tensor>& part_actions) const override;

 private:
  struct Slot {
    int64_t size;  // the tile's city count: parts_ holds one group per size
    int64_t row;   // instance within that group
  };
  std::vector<std::vector<Point>> cities_;               // per instance
  std::vector<std::vector<std::vector<int64_t>>> tiles_;  // per instance, per tile: city indices
  std::vector<std::vector<Slot>> slots_;                 // per instance, per tile: its part
  std::vector<Instances> parts_;                         // tiles of equal size together
  torch::Device device_;                                 // where the instances live
};

}  // namespace eie::tsp
