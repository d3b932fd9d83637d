#include "policies/encoder_agent.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace eie::policy {

namespace {

// The calibrated values of `table` at size n, with as many encoder layers as `layers`.
const LayerValues& calibrated_at(const LayerTable& table, int64_t n, size_t layers,
                                 const std::string& what) {
  const auto found = table.find(n);
  if (found == table.end()) {
    throw std::invalid_argument(what + ": no table for n = " + std::to_string(n));
  }
  if (found->second.encoder.size() != layers) {
    throw std::invalid_argument(what + ": the table has " +
                                std::to_string(found->second.encoder.size()) +
                                " encoder layers, the model " + std::to_string(layers));
  }
  return found->second;
}

// Every layer's distance bias at size n under config.bias, for a network that may have
// trained betas. Parts the policy does not name keep the bias as trained: the trained
// betas, grown with n as the network was trained to; the entropy policy adds its
// betas to that (an untrained network's are 0), so a head trained near 0 or below
// can still be made local.
void set_biases(AttentionPlan& plan, const AttentionConfig& config,
                const nn::TrainedBiasOptions& trained_bias, int64_t train_n, int64_t n) {
  const double as_trained =
      trained_bias.enabled ? bias_growth(trained_bias.growth, n, train_n) : 1.0;
  for (auto& layer : plan.encoder) layer.bias = {as_trained, 0};
  plan.glimpse.bias = plan.pointer_bias = {as_trained, 0};
  const auto& spec = config.bias;
  if (spec.as_trained()) return;
  const size_t layers = plan.encoder.size();
  std::vector<DistanceBias> encoder(layers);
  DistanceBias glimpse, pointer;
  if (spec.calibrated()) {
    if (!config.calibrated_bias) throw std::logic_error("--bias entropy without its table");
    const auto& betas = calibrated_at(*config.calibrated_bias, n, layers, "entropy biases");
    for (size_t l = 0; l < layers; ++l) encoder[l] = {as_trained, betas.encoder[l]};
    glimpse = {as_trained, betas.glimpse};
    pointer = {as_trained, betas.pointer};
  } else {
    DistanceBias bias{0, 0};  // none
    if (spec.name != "none") {
      const double growth = bias_growth(spec.name, n, train_n);
      bias = spec.beta ? DistanceBias{0, *spec.beta * growth} : DistanceBias{growth, 0};
    }
    encoder.assign(layers, bias);
    glimpse = pointer = bias;
  }
  for (size_t l = 0; l < layers; ++l) {
    if (spec.parts.encoder) plan.encoder[l].bias = encoder[l];
  }
  if (spec.parts.glimpse) plan.glimpse.bias = glimpse;
  if (spec.parts.pointer) plan.pointer_bias = pointer;
}

}  // namespace

AttentionPlan encoder_plan(const AttentionConfig& config, const nn::EncoderOptions& encoder,
                           int64_t train_n, int64_t n) {
  const int64_t head_dim = encoder.embed_dim / encoder.heads;
  // The token count a windowed part attends to; 0 where no window applies.
  const auto window_if = [&](bool applies) {
    return applies && config.window > 0 && config.window < n ? config.window : int64_t{0};
  };
  const auto& parts = config.window_parts;
  const int64_t encoder_window = window_if(parts.encoder);
  const int64_t glimpse_window = window_if(parts.glimpse);
  AttentionPlan plan;
  if (config.policy) {
    const auto at = [&](int64_t window) {
      return plan_attention(*config.policy, config.scope,
                            ScaleQuery{window > 0 ? window : n, head_dim, train_n}, encoder.layers);
    };
    plan.encoder = at(encoder_window).encoder;
    plan.glimpse = at(glimpse_window).glimpse;
  } else {
    const AttentionSetting trained{1.0 / std::sqrt(static_cast<double>(head_dim)), 0};
    plan = AttentionPlan{std::vector<AttentionSetting>(encoder.layers, trained), trained};
  }
  if (config.calibrated) {
    const auto& scales =
        calibrated_at(*config.calibrated, n, plan.encoder.size(), "calibrated scales");
    for (size_t l = 0; l < plan.encoder.size(); ++l) plan.encoder[l].scale = scales.encoder[l];
    plan.glimpse.scale = scales.glimpse;
  }
  set_biases(plan, config, encoder.trained_bias, train_n, n);
  for (auto& layer : plan.encoder) layer.window = encoder_window;
  plan.glimpse.window = glimpse_window;
  plan.pointer_window = window_if(parts.pointer);
  if (config.probes) {
    config.probes->encoder.resize(plan.encoder.size());
    for (size_t l = 0; l < plan.encoder.size(); ++l)
      plan.encoder[l].probe = &config.probes->encoder[l];
    plan.glimpse.probe = &config.probes->glimpse;
    plan.pointer_probe = &config.probes->pointer;
  }
  return plan;
}

Attributes encoder_spec(const std::string& problem, const std::string& policy,
                        const nn::EncoderOptions& encoder, double tanh_clip, int64_t train_n) {
  Attributes spec{{"problem", problem},
          {"policy", policy},
          {"embed_dim", encoder.embed_dim},
          {"heads", encoder.heads},
          {"encoder_layers", encoder.layers},
          {"ff_hidden", encoder.ff_hidden},
          {"normalization", nn::to_string(encoder.normalization)},
          {"tanh_clip", tanh_clip},
          {"train_n", train_n},
          {"trained_scale", std::string("sqrt")},
          {"cosine_scale", encoder.cosine_scale}};
  if (encoder.trained_bias.enabled) {
    spec["distance_bias"] = std::string(encoder.trained_bias.learn ? "learned" : "fixed");
    spec["bias_growth"] = encoder.trained_bias.growth;
  }
  return spec;
}

Trajectory decode_then_score(
    const std::function<Trajectory()>& decode,
    const std::function<torch::Tensor(const torch::Tensor& actions)>& score, int64_t forced_steps) {
  Trajectory t;
  {
    torch::NoGradGuard no_grad;
    t = decode();
  }
  t.step_log_probs = score(t.actions);
  t.log_likelihood = own_log_likelihood(t.step_log_probs, forced_steps);
  return t;
}

StartedInstances with_copies(const Instances& instances, const Copies& copies) {
  const auto& starts = copies.first_actions;
  if (starts.defined() && (starts.dim() != 2 || starts.size(0) != instances.count() ||
                           starts.size(1) != copies.count)) {
    throw std::invalid_argument("multi-start: expected one row of first actions per instance");
  }
  if (copies.count < 1) throw std::invalid_argument("copies: at least one per instance");
  const int64_t K = copies.count;
  return {K == 1 ? instances : instances.repeat_each(K),
          starts.defined() ? starts.reshape({-1, 1}) : torch::Tensor{}, K};
}

}  // namespace eie::policy
