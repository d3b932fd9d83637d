#pragma once

#include <torch/torch.h>

#include "src/attention/setting.h"
#include "src/nn/distance_bias.h"

namespace eie::nn {

struct MultiHeadAttentionOptions {
  int64_t embed_dim = 128;  // E, width of the node embeddings
  int64_t heads = 8;        // M; head size d = E / M
  double cosine_scale = 0;  // > 0: cosine attention, scores s * q^.k^ (unit q, k); 0: q.k
  TrainedBiasOptions trained_bias{};  // per-head distance betas in the network
};

// Multi-head self-attention without biases (Kool et al. 2019). The weights keep
// the per-head layout (M, E, d) and (M, d, E) so reference checkpoints load as they are.
class MultiHeadAttentionImpl : public torch::nn::Module {
 public:
  explicit MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options);
  // h: [B, n, E] -> [B, n, E]; scores are softmax(setting.scale * q.k - beta d)
  // (cosine: q.k becomes s * sqrt(d) * q^.k^, so the trained 1/sqrt(d) gives s;
  // the bias needs geometry.positions). With a window K < n, node i attends to
  // geometry.neighbours[b, i, :K] only.
  torch::Tensor forward(const torch::Tensor& h, const AttentionSetting& setting,
                        const NodeGeometry& geometry = {});
  // The attention rows [B, M, n, n] (for entropy measurements and tests).
  torch::Tensor attention(const torch::Tensor& h, const AttentionSetting& setting,
                          const NodeGeometry& geometry = {});

  torch::Tensor W_query, W_key, W_val;  // (M, E, d): head m reads features through [m]
  torch::Tensor W_out;                  // (M, d, E): head m writes back through [m]
  torch::Tensor distance_bias;          // [M] trained betas, when options.trained_bias

 private:
  // q, k, v as [B, M, n, d].
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> project(const torch::Tensor& h);
  // The per-head betas under `setting`; undefined without a bias. Throws when a
  // bias applies and `geometry` has no positions.
  torch::Tensor betas(const AttentionSetting& setting, const NodeGeometry& geometry) const;
  MultiHeadAttentionOptions options_;
};
TORCH_MODULE(MultiHeadAttention);

}  // namespace eie::nn
