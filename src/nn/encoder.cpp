#include "src/nn/encoder.h"

#include <stdexcept>

#include "src/nn/batch_statistics.h"

namespace eie::nn {

Normalization parse_normalization(const std::string& text) {
  if (text == "batch") return Normalization::batch;
  if (text == "layer") return Normalization::layer;
  throw std::invalid_argument("normalization: expected 'batch' or 'layer', got '" + text + "'");
}

std::string to_string(Normalization norm) {
  return norm == Normalization::batch ? "batch" : "layer";
}

FeatureNormImpl::FeatureNormImpl(int64_t embed_dim, Normalization kind) {
  if (kind == Normalization::batch) {
    batch_ = register_module("bn", torch::nn::BatchNorm1d(embed_dim));
  } else {
    layer_ = register_module("ln", torch::nn::LayerNorm(torch::nn::LayerNormOptions({embed_dim})));
  }
}

torch::Tensor FeatureNormImpl::forward(const torch::Tensor& h) {
  if (layer_) return layer_(h);
  const auto rows = h.reshape({-1, h.size(-1)});
  if (auto* collective = SyncBatchStatistics::active(); collective && batch_->is_training()) {
    return synced_batch_norm(rows, *batch_, *collective).view(h.sizes());
  }
  return batch_(rows).view(h.sizes());
}

EncoderLayerImpl::EncoderLayerImpl(const EncoderOptions& o) {
  attention = register_module("attention",
                              MultiHeadAttention(MultiHeadAttentionOptions{
                                               o.embed_dim, o.heads, o.cosine_scale, o.trained_bias}));
  norm1 = register_module("norm1", FeatureNorm(o.embed_dim, o.normalization));
  ff1 = register_module("ff1", torch::nn::Linear(o.embed_dim, o.ff_hidden));
  ff2 = register_module("ff2", torch::nn::Linear(o.ff_hidden, o.embed_dim));
  norm2 = register_module("norm2", FeatureNorm(o.embed_dim, o.normalization));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor& h, const AttentionSetting& setting,
                                        const NodeGeometry& geometry) {
  auto x = norm1(h + attention(h, setting, geometry));
  return norm2(x + ff2(torch::relu(ff1(x))));
}

EncoderImpl::EncoderImpl(const EncoderOptions& options) : options_(options) {
  auto list = register_module("layers", torch::nn::ModuleList());
  for (int64_t l = 0; l < options.layers; ++l) {
    layers.emplace_back(options);
    list->push_back(layers.back());
  }
}

torch::Tensor EncoderImpl::forward(torch::Tensor h, const std::vector<AttentionSetting>& settings,
                                   const NodeGeometry& geometry) {
  TORCH_CHECK(settings.size() == layers.size(), "one attention setting per encoder layer");
  for (size_t l = 0; l < layers.size(); ++l) h = layers[l](h, settings[l], geometry);
  return h;
}

}  // namespace eie::nn
