#pragma once

#include <torch/torch.h>

#include <vector>

namespace eie::nn {

// Accumulates the entropy of the attention rows one layer computes: a
// measurement attached to an AttentionSetting, never part of the model.
class EntropyProbe {
 public:
  // weights: [M, rows, tokens] softmax rows of M heads (zeros outside the attended set).
  void add(const torch::Tensor& weights);
  // Mean entropy per head [M] (float64), and its standard deviation over rows.
  [[nodiscard]] torch::Tensor mean() const;
  [[nodiscard]] torch::Tensor std() const;
  [[nodiscard]] int64_t rows() const { return rows_; }

 private:
  torch::Tensor sum_;     // [M] float64
  torch::Tensor square_;  // [M] float64, sum of squared entropies
  int64_t rows_ = 0;      // rows per head seen
};

// A probe for every attention layer of a policy.
struct EntropyProbes {
  std::vector<EntropyProbe> encoder;  // one per encoder layer
  EntropyProbe glimpse;               // the decoder glimpse (every step)
  EntropyProbe pointer;               // the choice's distribution (every step)
};

}  // namespace eie::nn
