#pragma once

#include <torch/torch.h>

#include <vector>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/height_map.h"
#include "problems/bpp3d/packing.h"
#include "src/problem/environment.h"

namespace eie::bpp3d {

// Batched packings under construction, two steps per box: choose a box and its
// orientation (actions box * 6 + o), then its position (x * W + y, restricted to
// bottom-left corner candidates). All instances share n and the bin base.
// Per-instance work runs in parallel over the batch (OpenMP, no LibTorch calls
// inside the region). Heights the policy reads are relative to the current
// packed height H and divided by the instance's longest box side S, so they look
// alike whether 10 or 1600 boxes are packed.
class Bpp3dEnvironment final : public Environment {
 public:
  explicit Bpp3dEnvironment(std::vector<BppData> instances);

  [[nodiscard]] torch::Tensor feasible() const override;
  void step(const torch::Tensor& action) override;
  [[nodiscard]] bool done() const override { return packed_count_ == n_; }
  // A box step and a position step per box.
  [[nodiscard]] int64_t max_steps() const override { return 2 * n_; }
  // [B] float32: minus the load rate (the objective is maximised).
  [[nodiscard]] torch::Tensor cost() const override;

  // The boxes the problem is sized by.
  [[nodiscard]] int64_t size() const { return n_; }
  [[nodiscard]] int length() const { return length_; }
  [[nodiscard]] int width() const { return width_; }
  // True when the next action chooses a box (else a position).
  [[nodiscard]] bool choosing_box() const { return !box_chosen_; }
  // [B, n, 3] box sides (l, w, h) / S.
  [[nodiscard]] torch::Tensor box_features() const;
  // [B, 6 n, 4] per (box, orientation) action: dx / S, dy / S, dz / S, dx dy dz / S^3.
  [[nodiscard]] torch::Tensor orientation_features() const;
  // [B, 4] while choosing a box: packed fraction, (mean height - H) / S,
  // (lowest height - H) / S, fraction of the base at height H.
  [[nodiscard]] torch::Tensor bin_features() const;
  // [B, 6 n, 2] while choosing a box, per (box, orientation) action: (r - H) / S and
  // how far placing it would raise H, max(0, r + dz - H) / S, where r is the lowest
  // resting height of its footprint on a grid of 5 x 5 blocks (BlockFit); zeros for
  // packed boxes and orientations that leave the base.
  [[nodiscard]] torch::Tensor fit_features() const;
  // [B] int64, the box chosen for the pending position step.
  [[nodiscard]] torch::Tensor chosen_box() const;
  // [B, 2, L, W] while choosing a position: (height - H) / S and (resting height of
  // the chosen footprint - H) / S (0 where it does not fit), both clamped to >= -4.
  [[nodiscard]] torch::Tensor height_maps() const;
  // The positions the next action chooses among, padded to the batch's largest
  // count K: position [B, K] int64 (x * W + y; L * W in padding), valid [B, K]
  // bool, and per position [B, K, 3]: (resting height - H) / S, how far the box
  // would raise H / S, and the empty space it would cover per footprint cell / S.
  struct Candidates {
    torch::Tensor position;  // [B, K] int64
    torch::Tensor valid;     // [B, K] bool
    torch::Tensor features;  // [B, K, 3] float32
  };
  [[nodiscard]] Candidates candidates() const;
  // Placements so far, per instance, in packing order.
  [[nodiscard]] const std::vector<std::vector<Placement>>& placements() const {
    return placements_;
  }

 private:
  // Resting heights, candidates and features of each instance's chosen footprint.
  void prepare_positions();

  std::vector<BppData> instances_;                  // as given
  std::vector<HeightMap> maps_;                     // per instance
  std::vector<std::vector<uint8_t>> packed_;        // per instance and box
  std::vector<uint8_t> fits_;                       // [B, n, 6] orientation fits the base
  std::vector<std::vector<Placement>> placements_;  // per instance, in packing order
  std::vector<float> scale_;                        // S per instance: longest box side
  std::vector<int> chosen_box_;                     // per instance, valid while box_chosen_
  std::vector<Extents> chosen_extents_;             // per instance, valid while box_chosen_
  std::vector<int32_t> resting_;                    // [B, L, W] resting heights of the chosen box
  std::vector<uint8_t> candidates_;                 // [B, L, W] position mask
  std::vector<std::vector<int32_t>> candidate_positions_;  // per instance: x * W + y
  std::vector<std::vector<float>> candidate_features_;     // per instance: 3 per candidate
  std::vector<float> chosen_resting_;                      // [B, L, W] (resting height - H) / S
  int64_t n_;                                              // boxes per instance
  int length_;                                             // L (x extent of every base)
  int width_;                                              // W (y extent)
  int64_t packed_count_ = 0;                               // boxes placed per instance so far
  bool box_chosen_ = false;                                // a position step is pending
};

}  // namespace eie::bpp3d
