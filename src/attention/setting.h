#pragma once

#include <cstdint>
#include <vector>

namespace eie {

namespace nn {
class EntropyProbe;
}

// A distance bias: beta * d_ij leaves the score of node j seen from node i (d the
// Euclidean distance of their positions, as the policy sees them), so that attention
// stays near. Head h's beta is factor * trained_h + added, trained_h the layer's
// trained betas (0 for a layer without them).
struct DistanceBias {
  double factor = 1;  // of the trained betas (1: as trained)
  double added = 0;   // one beta for every head on top of them
};

// What one attention layer is told at run time. Changing it never needs a
// retrained policy: scores are softmax(scale * q.k - beta * d) over the attended nodes.
struct AttentionSetting {
  double scale = 0.25;  // lambda multiplying q.k (1/sqrt(d) is the trained value)
  int64_t window = 0;   // attend to the `window` nearest nodes only; 0 = all nodes
  DistanceBias bias{};  // as trained by default
  nn::EntropyProbe* probe = nullptr;  // when set, the layer records its row entropies
};

// Where a window of K nodes applies (any combination).
struct WindowParts {
  bool encoder = true;   // self-attention over each node's K nearest nodes
  bool glimpse = true;   // the glimpse over the K nearest feasible nodes of the current one
  bool pointer = true;   // the choice among those K nodes
  bool view = false;     // each step decoded on a local view: the current node's K nearest
                         // nodes (and the context nodes), rescaled into the unit square and
                         // encoded as an instance of their own
  bool tiles = false;    // the instance cut into spatial tiles of at most K nodes, each
                         // decoded as an instance of its own (rescaled into the unit
                         // square), the tiles' solutions joined
};

// Settings for every attention layer of a policy at one instance size.
struct AttentionPlan {
  std::vector<AttentionSetting> encoder;  // one per encoder layer
  AttentionSetting glimpse;               // the decoder glimpse (never the pointer logits)
  int64_t pointer_window = 0;             // choose among this many nearest feasible nodes (0: all)
  DistanceBias pointer_bias{};            // subtracted from the pointer logits, outside the clip
  nn::EntropyProbe* pointer_probe = nullptr;  // when set, records the pointer's entropies
};

}  // namespace eie
