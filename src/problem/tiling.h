#pragma once

#include <torch/torch.h>

#include <vector>

#include "src/problem/instances.h"

namespace eie {

// A batch of instances cut into parts that are solved as instances of their own
// (tiled decoding, --window-at tiles), and the way back to whole solutions.
class Tiling {
 public:
  virtual ~Tiling() = default;
  // Every part of every instance, grouped so that the parts of a group have one size.
  [[nodiscard]] virtual const std::vector<Instances>& parts() const = 0;
  // Solutions of the whole instances [B, T] from the parts' solutions: one
  // [count, t] per group of parts(), actions indexing the part's own nodes.
  [[nodiscard]] virtual torch::Tensor join(const std::vector<torch::Tensor>& part_actions) const = 0;
};

}  // namespace eie
