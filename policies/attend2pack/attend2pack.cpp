#include "attend2pack/attend2pack.h"

#include <cmath>
#include <limits>

#include "bpp3d/box.h"
#include "nn/glimpse.h"

namespace eie::policy {

namespace {

constexpr int64_t kChannels = 4;  // CNN width (2 -> 4 -> 4 -> 4)
constexpr int64_t kBlock = 8;     // three stride-2 convolutions: one feature per 8 x 8 block

torch::nn::Linear linear(int64_t in, int64_t out, bool bias) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

torch::nn::Conv2d conv(int64_t in) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, kChannels, 3).stride(2).padding(1));
}

torch::Tensor masked_log_softmax(const torch::Tensor& logits, const torch::Tensor& feasible,
                                 double clip) {
  const auto clipped = torch::tanh(logits) * clip;
  return torch::log_softmax(
      clipped.masked_fill(feasible.logical_not(), -std::numeric_limits<float>::infinity()), -1);
}

class Attend2PackDecoder final : public StepPolicy {
 public:
  Attend2PackDecoder(Attend2PackImpl& model, const bpp3d::Bpp3dEnvironment& env,
                     torch::Tensor embeddings, AttentionSetting glimpse)
      : model_(model), env_(env), embeddings_(std::move(embeddings)), glimpse_(glimpse) {
    const auto projected = model.project_box_embeddings(embeddings_).chunk(2, -1);
    memory_ = nn::glimpse_memory(projected[0], projected[1], model.options().encoder.heads);
    const int64_t B = embeddings_.size(0), n = embeddings_.size(1);
    pointer_keys_ = model.project_pointer_keys(embeddings_).view({B, n * bpp3d::kOrientations, -1});
    prior_ = model.orientation_prior(env.orientation_features().to(like())).squeeze(2);
    fixed_context_ = model.project_fixed_context(embeddings_.mean(1));
  }

  torch::Tensor log_probs(const torch::Tensor& feasible) override {
    return env_.choosing_box() ? box_log_probs(feasible) : position_log_probs();
  }

 private:
  torch::Tensor box_log_probs(const torch::Tensor& feasible) {
    const int64_t B = embeddings_.size(0), n = embeddings_.size(1), E = embeddings_.size(2);
    const auto query = fixed_context_ + model_.project_bin(env_.bin_features().to(like()));
    const auto unpacked = feasible.view({B, n, bpp3d::kOrientations}).any(2);
    const auto refined =
        model_.project_out(nn::glimpse(memory_, query, unpacked.logical_not(), glimpse_.scale,
                                       glimpse_.probe));
    const auto logits = torch::bmm(pointer_keys_, refined.unsqueeze(2)).squeeze(2) /
                            std::sqrt(static_cast<double>(E)) +
                        prior_;
    return masked_log_softmax(logits, feasible, model_.options().tanh_clip);
  }

  torch::Tensor position_log_probs() {
    const int64_t B = embeddings_.size(0), L = env_.length(), W = env_.width();
    auto features = torch::relu(model_.conv1(env_.height_maps().to(like())));
    features = torch::relu(model_.conv2(features));
    features = torch::relu(model_.conv3(features));  // [B, 4, ceil(L/8), ceil(W/8)]
    const auto box = embeddings_.gather(1, env_.chosen_box()
                                               .to(embeddings_.device())
                                               .view({B, 1, 1})
                                               .expand({B, 1, embeddings_.size(2)}));
    features = features + model_.box_to_map(box.squeeze(1)).view({B, kChannels, 1, 1});
    const int64_t blocks_y = features.size(3);
    const auto coarse = model_.coarse_logit(torch::relu(features)).flatten(1);  // [B, L' W']
    // Logits only at the candidates (tens, not L W): far less memory kept for backward.
    const auto candidates = env_.candidates();
    const auto position = candidates.position.to(embeddings_.device());
    const auto block = (position.div(W, "floor").div(kBlock, "floor") * blocks_y +
                        position.remainder(W).div(kBlock, "floor"))
                           .clamp_max(coarse.size(1) - 1);  // padding points past the base
    const auto local = model_.position_logit(candidates.features.to(like())).squeeze(2);
    const auto log_p =
        masked_log_softmax(coarse.gather(1, block) + local,
                           candidates.valid.to(embeddings_.device()), model_.options().tanh_clip);
    // Into the full action space: padding lands in one extra column, then dropped.
    return torch::full({B, L * W + 1}, -std::numeric_limits<float>::infinity(), log_p.options())
        .scatter(1, position, log_p)
        .slice(1, 0, L * W);
  }

  // Device and precision of the network, for the environment's float32 tensors.
  [[nodiscard]] torch::TensorOptions like() const { return embeddings_.options(); }

  Attend2PackImpl& model_;              // the network (outlives the decoder)
  const bpp3d::Bpp3dEnvironment& env_;  // state of the packings
  torch::Tensor embeddings_;            // [B, n, E] box embeddings
  AttentionSetting glimpse_;            // the glimpse's scale
  nn::GlimpseMemory memory_;            // glimpse keys and values over the boxes
  torch::Tensor pointer_keys_;          // [B, 6 n, E], one key per (box, orientation)
  torch::Tensor prior_;                 // [B, 6 n] orientation_prior of every action
  torch::Tensor fixed_context_;         // [B, E] projected mean box embedding
};

}  // namespace

Attend2PackImpl::Attend2PackImpl(const Attend2PackOptions& options) : options_(options) {
  const int64_t E = options.encoder.embed_dim;
  init_embed = register_module("init_embed", torch::nn::Linear(3, E));
  encoder = register_module("encoder", nn::Encoder(options.encoder));
  project_box_embeddings = register_module("project_box_embeddings", linear(E, 2 * E, false));
  project_pointer_keys =
      register_module("project_pointer_keys", linear(E, bpp3d::kOrientations * E, false));
  project_fixed_context = register_module("project_fixed_context", linear(E, E, false));
  project_bin = register_module("project_bin", linear(4, E, false));
  project_out = register_module("project_out", linear(E, E, false));
  orientation_prior = register_module("orientation_prior", torch::nn::Linear(4, 1));
  conv1 = register_module("conv1", conv(2));
  conv2 = register_module("conv2", conv(kChannels));
  conv3 = register_module("conv3", conv(kChannels));
  box_to_map = register_module("box_to_map", torch::nn::Linear(E, kChannels));
  coarse_logit =
      register_module("coarse_logit", torch::nn::Conv2d(torch::nn::Conv2dOptions(kChannels, 1, 1)));
  position_logit = register_module("position_logit", torch::nn::Linear(3, 1));
  // Start from simple packing preferences rather than uniform choices: big boxes
  // first, standing on a small face, placed low, flat and tight. Measured by editing
  // these weights, `eie train --problem bpp3d --n 100 --epochs 1 --steps 1 --batch 8
  // --seed 7` and greedy `eie solve` on `eie gen --problem bpp3d --n 100 --count 64
  // --seed 5` (load rates of an essentially untrained network): 0.67
  // with only the placement preferences; volume first 0.65, lying flat 0.61,
  // standing 0.69, standing + volume 0.70 (this choice). Uniform placements stack
  // boxes into towers, and REINFORCE would spend its first epochs learning that.
  torch::NoGradGuard no_grad;
  orientation_prior->weight.copy_(torch::tensor({0.0f, 0.0f, 2.0f, 3.0f}).view({1, 4}));
  orientation_prior->bias.zero_();
  position_logit->weight.fill_(-1.0);
  position_logit->bias.zero_();
}

torch::Tensor Attend2PackImpl::encode(const bpp3d::Bpp3dEnvironment& env,
                                      const std::vector<AttentionSetting>& settings) {
  return encoder(init_embed(env.box_features().to(init_embed->weight.options())), settings);
}

std::unique_ptr<StepPolicy> Attend2PackImpl::start(const bpp3d::Bpp3dEnvironment& env,
                                                   const AttentionPlan& plan) {
  return std::make_unique<Attend2PackDecoder>(*this, env, encode(env, plan.encoder), plan.glimpse);
}

}  // namespace eie::policy
