#pragma once

#include <torch/torch.h>

#include <string>
#include <vector>

#include "src/attention/setting.h"
#include "src/nn/multi_head_attention.h"

namespace eie::nn {

enum class Normalization { batch, layer };
[[nodiscard]] Normalization parse_normalization(const std::string& text);
[[nodiscard]] std::string to_string(Normalization norm);

struct EncoderOptions {
  int64_t embed_dim = 128;                             // E
  int64_t heads = 8;                                   // M
  int64_t layers = 3;                                  // encoder layers
  int64_t ff_hidden = 512;                             // feed-forward hidden width
  Normalization normalization = Normalization::batch;  // batch uses running stats in eval
  double cosine_scale = 0;                             // > 0: cosine attention (CosScale s)
  TrainedBiasOptions trained_bias{};                   // per-head distance betas, when trained in
};

// Per-feature normalisation over all node vectors of a batch [B, n, E].
class FeatureNormImpl : public torch::nn::Module {
 public:
  FeatureNormImpl(int64_t embed_dim, Normalization kind);
  torch::Tensor forward(const torch::Tensor& h);

 private:
  torch::nn::BatchNorm1d batch_{nullptr};  // set when kind == batch
  torch::nn::LayerNorm layer_{nullptr};    // set when kind == layer
};
TORCH_MODULE(FeatureNorm);

// h <- norm(h + MHA(h)); h <- norm(h + FF(h)).
class EncoderLayerImpl : public torch::nn::Module {
 public:
  explicit EncoderLayerImpl(const EncoderOptions& options);
  torch::Tensor forward(const torch::Tensor& h, const AttentionSetting& setting,
                        const NodeGeometry& geometry = {});

  MultiHeadAttention attention{nullptr};
  FeatureNorm norm1{nullptr};
  torch::nn::Linear ff1{nullptr}, ff2{nullptr};
  FeatureNorm norm2{nullptr};
};
TORCH_MODULE(EncoderLayer);

// A stack of encoder layers without position information: permuting the input
// rows permutes the output rows.
class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const EncoderOptions& options);
  // settings: one per layer; `geometry` for windowed and distance-biased layers.
  torch::Tensor forward(torch::Tensor h, const std::vector<AttentionSetting>& settings,
                        const NodeGeometry& geometry = {});

  [[nodiscard]] const EncoderOptions& options() const { return options_; }
  std::vector<EncoderLayer> layers;

 private:
  EncoderOptions options_;
};
TORCH_MODULE(Encoder);

}  // namespace eie::nn
