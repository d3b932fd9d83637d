#pragma once

#include <cstdint>
#include <vector>

namespace eie {

// What one attention layer is told at run time. Changing it never needs a
// retrained policy: scores are softmax(scale * q.k) over the attended nodes.
struct AttentionSetting {
  double scale = 0.25;  // lambda multiplying q.k (1/sqrt(d) is the trained value)
  int64_t window = 0;   // attend to the `window` nearest nodes only; 0 = all nodes
};

// Settings for every attention layer of a policy at one instance size.
struct AttentionPlan {
  std::vector<AttentionSetting> encoder;  // one per encoder layer
  AttentionSetting glimpse;               // the decoder glimpse (never the pointer logits)
};

}  // namespace eie
