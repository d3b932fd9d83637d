#include "encoder_agent.h"

#include <cmath>

namespace eie::policy {

AttentionPlan encoder_plan(const AttentionConfig& config, const nn::EncoderOptions& encoder,
                           int64_t train_n, int64_t n) {
  const ScaleQuery query{n, encoder.embed_dim / encoder.heads, train_n};
  if (config.policy) return plan_attention(*config.policy, config.scope, query, encoder.layers);
  const AttentionSetting trained{1.0 / std::sqrt(static_cast<double>(query.head_dim)), 0};
  return AttentionPlan{std::vector<AttentionSetting>(encoder.layers, trained), trained};
}

std::map<std::string, h5::Attribute> encoder_spec(const std::string& problem,
                                                  const std::string& policy,
                                                  const nn::EncoderOptions& encoder,
                                                  double tanh_clip, int64_t train_n) {
  return {{"problem", problem},
          {"policy", policy},
          {"embed_dim", encoder.embed_dim},
          {"heads", encoder.heads},
          {"encoder_layers", encoder.layers},
          {"ff_hidden", encoder.ff_hidden},
          {"normalization", nn::to_string(encoder.normalization)},
          {"tanh_clip", tanh_clip},
          {"train_n", train_n},
          {"trained_scale", std::string("sqrt")}};
}

}  // namespace eie::policy
