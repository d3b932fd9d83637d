#include "policies/attend2pack/attend2pack.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "problems/bpp3d/box.h"
#include "src/nn/glimpse.h"

namespace eie::policy {

namespace {

constexpr int64_t kChannels = 4;  // CNN width (2 -> 4 -> 4 -> 4)
constexpr int64_t kBlock = 8;     // three stride-2 convolutions: one feature per 8 x 8 block
// Height maps per CNN call when scoring a decoding: the convolutions' backward
// over all 6,400 maps of a batch of 64 at n = 100 took 7.2 s, in parts of 320 3.4 s.
// The parts are stacked from the recorded steps as needed: stacking all at once
// would copy them (0.6 GB at that size).
constexpr int64_t kScoringMaps = 320;

torch::nn::Linear linear(int64_t in, int64_t out, bool bias) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

torch::nn::Conv2d conv(int64_t in) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, kChannels, 3).stride(2).padding(1));
}

// Log-softmax over the feasible actions of clip * tanh(learned) + preference. The
// tanh clip (Kool et al.) bounds what the network learns; the hand-set preferences
// stay outside it, where their gaps are not squashed: inside, 41% of the first box
// choices of a fresh network sat within 0.4 of the clip, where tanh passes almost no
// gradient, and the choice among them was near uniform.
torch::Tensor masked_log_softmax(const torch::Tensor& learned, const torch::Tensor& preference,
                                 const torch::Tensor& feasible, double clip) {
  return torch::log_softmax(
      nn::masked_scores(torch::tanh(learned) * clip + preference, feasible.logical_not()), -1);
}

// Per-step tensors [B, K, ...] stacked into [B, T, K', ...], each padded with `pad`
// along K (the candidates) up to the longest.
torch::Tensor stack_steps(const std::vector<torch::Tensor>& steps, double pad) {
  int64_t longest = 0;
  for (const auto& t : steps) longest = std::max(longest, t.size(1));
  std::vector<torch::Tensor> padded;
  for (const auto& t : steps) {
    std::vector<int64_t> widths(2 * (t.dim() - 1), 0);  // last dimension first
    widths[2 * (t.dim() - 2) + 1] = longest - t.size(1);
    padded.push_back(torch::constant_pad_nd(t, widths, pad));
  }
  return torch::stack(padded, 1);
}

class Attend2PackDecoder final : public StepPolicy {
 public:
  // With `record`, every step's inputs are kept there for score().
  Attend2PackDecoder(Attend2PackImpl& model, const bpp3d::Bpp3dEnvironment& env,
                     torch::Tensor embeddings, AttentionSetting glimpse, PackingSteps* record)
      : model_(model),
        env_(env),
        embeddings_(std::move(embeddings)),
        glimpse_(glimpse),
        record_(record) {
    const auto projected = model.project_box_embeddings(embeddings_).chunk(2, -1);
    memory_ = nn::glimpse_memory(projected[0], projected[1], model.options().encoder.heads);
    box_keys_ = embeddings_.transpose(1, 2).contiguous();
    // The key of (box i, orientation o) is P_o e_i (P = project_pointer_keys, no
    // bias), so its score is e_i . (P_o^T r): six queries per step meet the n box
    // embeddings, and the 6 n keys are never formed (a step read them all: 6x the
    // memory traffic). Columns o E .. (o + 1) E - 1 of this [E, 6 E] map r to P_o^T r.
    const int64_t E = embeddings_.size(2);
    pointer_queries_ = model.project_pointer_keys->weight.view({bpp3d::kOrientations, E, E})
                           .permute({1, 0, 2})
                           .reshape({E, -1});
    preference_ = model.box_preference(env.orientation_features().to(like())).squeeze(2);
    fixed_context_ = model.project_fixed_context(embeddings_.mean(1));
  }

  torch::Tensor log_probs(const torch::Tensor& environment_mask) override {
    const int64_t B = embeddings_.size(0), n = embeddings_.size(1);
    if (env_.choosing_box()) {
      const auto feasible = environment_mask.to(embeddings_.device());
      const auto bin = env_.bin_features().to(like());
      const auto fits = env_.fit_features().to(like());
      if (record_) {
        record_->bins.push_back(bin);
        record_->fits.push_back(fits);
        record_->feasible.push_back(feasible);
      }
      const auto unpacked = feasible.view({B, n, bpp3d::kOrientations}).any(2);
      const auto glimpsed = nn::glimpse(memory_, box_queries(bin.unsqueeze(1)).squeeze(1),
                                        unpacked.logical_not(), glimpse_.scale, glimpse_.probe);
      return box_log_probs(glimpsed.unsqueeze(1), fits.unsqueeze(1), feasible.unsqueeze(1))
          .squeeze(1);
    }
    const auto maps = env_.height_maps().to(like());
    const auto chosen = env_.chosen_box().to(embeddings_.device());
    auto candidates = env_.candidates();
    candidates.position = candidates.position.to(embeddings_.device());
    candidates.valid = candidates.valid.to(embeddings_.device());
    candidates.features = candidates.features.to(like());
    if (record_) {
      record_->maps.push_back(maps);
      record_->chosen.push_back(chosen);
      record_->candidates.push_back(candidates);
    }
    const auto log_p =
        position_log_probs({maps}, chosen.unsqueeze(1), candidates.position.unsqueeze(1),
                           candidates.valid.unsqueeze(1), candidates.features.unsqueeze(1))
            .squeeze(1);
    // Into the full action space: padding lands in one extra column, then dropped.
    const int64_t cells = int64_t{env_.length()} * env_.width();
    return torch::full({B, cells + 1}, -std::numeric_limits<float>::infinity(), log_p.options())
        .scatter(1, candidates.position, log_p)
        .slice(1, 0, cells);
  }

  // Log-probabilities [B, T] of `actions` (boxes and positions alternating) from
  // the recorded inputs, all box steps and all position steps at once.
  torch::Tensor score(const PackingSteps& steps, const torch::Tensor& actions) {
    const int64_t B = embeddings_.size(0), n = embeddings_.size(1);
    const auto feasible = torch::stack(steps.feasible, 1);  // [B, T, 6 n]
    const int64_t T = feasible.size(1);
    const auto unpacked = feasible.view({B, T, n, bpp3d::kOrientations}).any(3);
    const auto glimpsed = nn::glimpse_steps(memory_, box_queries(torch::stack(steps.bins, 1)),
                                            unpacked.logical_not(), glimpse_.scale);
    const auto box_actions = actions.slice(1, 0, 2 * T, 2);
    const auto box = box_log_probs(glimpsed, torch::stack(steps.fits, 1), feasible)
                         .gather(2, box_actions.unsqueeze(2))
                         .squeeze(2);
    std::vector<torch::Tensor> positions, valid, features;
    for (const auto& c : steps.candidates) {
      positions.push_back(c.position);
      valid.push_back(c.valid);
      features.push_back(c.features);
    }
    const int64_t cells = int64_t{env_.length()} * env_.width();
    const auto position = stack_steps(positions, static_cast<double>(cells));  // [B, T, K]
    const auto log_p = position_log_probs(steps.maps, torch::stack(steps.chosen, 1), position,
                                          stack_steps(valid, 0), stack_steps(features, 0));
    // Each placement's column among its step's candidates (positions are distinct).
    const auto placements = actions.slice(1, 1, 2 * T, 2);
    const auto column = (position == placements.unsqueeze(2)).to(torch::kInt).argmax(2, true);
    if (!torch::equal(position.gather(2, column).squeeze(2), placements)) {
      throw std::logic_error("a scored placement is not among its step's candidates");
    }
    const auto placed = log_p.gather(2, column).squeeze(2);
    return torch::stack({box, placed}, 2).view({B, 2 * T});
  }

 private:
  // Pointer queries [B, T, E] from the bin summaries [B, T, 4].
  torch::Tensor box_queries(const torch::Tensor& bins) const {
    return fixed_context_.unsqueeze(1) + model_.project_bin(bins);
  }

  // Over (box, orientation) pairs [B, T, 6 n], from the glimpses [B, T, E] and
  // the pairs' fit features [B, T, 6 n, 2].
  torch::Tensor box_log_probs(const torch::Tensor& glimpsed, const torch::Tensor& fits,
                              const torch::Tensor& feasible) const {
    const int64_t B = glimpsed.size(0), T = glimpsed.size(1);
    const int64_t E = box_keys_.size(1), n = box_keys_.size(2);
    const auto queries = torch::matmul(model_.project_out(glimpsed), pointer_queries_);
    const auto logits = torch::bmm(queries.view({B, T * bpp3d::kOrientations, E}), box_keys_)
                            .view({B, T, bpp3d::kOrientations, n})
                            .transpose(2, 3)
                            .reshape({B, T, n * bpp3d::kOrientations}) /
                        std::sqrt(static_cast<double>(E));
    const auto preference = preference_.unsqueeze(1) + model_.fit_preference(fits).squeeze(3);
    return masked_log_softmax(logits, preference, feasible, model_.options().tanh_clip);
  }

  // CNN features [B, T, 4, ceil(L/8), ceil(W/8)] of each step's height maps [B, 2, L, W].
  torch::Tensor map_features(const std::vector<torch::Tensor>& maps) const {
    const int64_t B = maps.front().size(0), T = static_cast<int64_t>(maps.size());
    const int64_t steps_per_part = std::max<int64_t>(1, kScoringMaps / B);
    std::vector<torch::Tensor> parts;
    for (int64_t first = 0; first < T; first += steps_per_part) {
      const auto last = maps.begin() + std::min(T, first + steps_per_part);
      const auto part = torch::stack(std::vector<torch::Tensor>(maps.begin() + first, last), 1);
      const auto c = torch::relu(model_.conv2(torch::relu(model_.conv1(part.flatten(0, 1)))));
      const auto f = torch::relu(model_.conv3(c));
      parts.push_back(f.view({B, part.size(1), kChannels, f.size(2), f.size(3)}));
    }
    return torch::cat(parts, 1);
  }

  // Over the candidate positions [B, T, K] (x * W + y; padding >= L W), from each
  // step's height maps [B, 2, L, W], the chosen boxes [B, T] and the candidates'
  // validity [B, T, K] and features [B, T, K, 3].
  torch::Tensor position_log_probs(const std::vector<torch::Tensor>& maps,
                                   const torch::Tensor& chosen, const torch::Tensor& position,
                                   const torch::Tensor& valid,
                                   const torch::Tensor& features) const {
    const int64_t B = chosen.size(0), T = chosen.size(1), E = embeddings_.size(2);
    const auto box = embeddings_.gather(1, chosen.unsqueeze(2).expand({B, T, E}));  // [B, T, E]
    const auto coarse = map_features(maps) + model_.box_to_map(box).view({B, T, kChannels, 1, 1});
    const int64_t blocks_y = coarse.size(4), W = maps.front().size(3);
    const auto logit = model_.coarse_logit(torch::relu(coarse).flatten(0, 1)).view({B, T, -1});
    // Logits only at the candidates (tens, not L W): far less memory kept for backward.
    const auto block = (position.div(W, "floor").div(kBlock, "floor") * blocks_y +
                        position.remainder(W).div(kBlock, "floor"))
                           .clamp_max(logit.size(2) - 1);  // padding points past the base
    return masked_log_softmax(logit.gather(2, block),
                              model_.position_preference(features).squeeze(3), valid,
                              model_.options().tanh_clip);
  }

  // Device and precision of the network, for the environment's float32 tensors.
  [[nodiscard]] torch::TensorOptions like() const { return embeddings_.options(); }

  Attend2PackImpl& model_;              // the network (outlives the decoder)
  const bpp3d::Bpp3dEnvironment& env_;  // state of the packings
  torch::Tensor embeddings_;            // [B, n, E] box embeddings
  AttentionSetting glimpse_;            // the glimpse's scale
  PackingSteps* record_;                // where to keep each step's inputs, or null
  nn::GlimpseMemory memory_;            // glimpse keys and values over the boxes
  torch::Tensor box_keys_;              // [B, E, n] the box embeddings, transposed
  torch::Tensor pointer_queries_;       // [E, 6 E] glimpse -> one pointer query per orientation
  torch::Tensor preference_;            // [B, 6 n] box_preference of every action
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
  box_preference = register_module("box_preference", torch::nn::Linear(4, 1));
  fit_preference = register_module("fit_preference", linear(2, 1, false));
  conv1 = register_module("conv1", conv(2));
  conv2 = register_module("conv2", conv(kChannels));
  conv3 = register_module("conv3", conv(kChannels));
  box_to_map = register_module("box_to_map", torch::nn::Linear(E, kChannels));
  coarse_logit =
      register_module("coarse_logit", torch::nn::Conv2d(torch::nn::Conv2dOptions(kChannels, 1, 1)));
  position_preference = register_module("position_preference", torch::nn::Linear(3, 1));
  // Start from simple packing preferences rather than uniform choices: big boxes
  // first, standing on a small face, placed low, flat and tight. Uniform placements
  // stack boxes into towers, and REINFORCE would spend its first epochs learning
  // that. Their strength k sets how far sampling strays from greedy. Measured with
  // weights k (0, 0, 2, 3) and -k, `eie train --problem bpp3d --n 100 --epochs 1
  // --steps 1 --batch 2 --seed 7`, then `eie solve` greedy and sample:1 on `eie gen
  // --problem bpp3d --n 100 --count 64 --seed 5`: k = 1, 2, 3, 5, 8 give greedy load
  // rates 0.667, 0.676, 0.676, 0.679, 0.688 and sampled 0.551, 0.599, 0.623, 0.657,
  // 0.681. k = 5 keeps samples near greedy yet varied.
  torch::NoGradGuard no_grad;
  box_preference->weight.copy_(torch::tensor({0.0f, 0.0f, 10.0f, 15.0f}).view({1, 4}));
  box_preference->bias.zero_();
  // Where a pair's footprint rests lowest, and how far it would raise H: weights
  // (-r, -k). Measured as above (each pair set here), greedy / sample:1: (r, k) =
  // (0, 0) 0.686 / 0.653, (0, 5) 0.696 / 0.666, (0, 10) 0.718 / 0.678, (0, 15)
  // 0.725 / 0.687, (0, 20) 0.727 / 0.693, (0, 30) 0.686 / 0.672, (0, 40) 0.662 /
  // 0.658, (5, 20) 0.733 / 0.700, (10, 20) 0.726 / 0.704, (-5, 20) 0.706 / 0.651,
  // (5, 25) 0.707 / 0.690.
  fit_preference->weight.copy_(torch::tensor({-5.0f, -20.0f}).view({1, 2}));
  position_preference->weight.fill_(-5.0);
  position_preference->bias.zero_();
}

torch::Tensor Attend2PackImpl::encode(const bpp3d::Bpp3dEnvironment& env,
                                      const std::vector<AttentionSetting>& settings) {
  return encoder(init_embed(env.box_features().to(init_embed->weight.options())), settings);
}

std::unique_ptr<StepPolicy> Attend2PackImpl::start(const bpp3d::Bpp3dEnvironment& env,
                                                   torch::Tensor embeddings,
                                                   AttentionSetting glimpse, PackingSteps* record) {
  return std::make_unique<Attend2PackDecoder>(*this, env, std::move(embeddings), glimpse, record);
}

torch::Tensor Attend2PackImpl::score(const bpp3d::Bpp3dEnvironment& env, const PackingSteps& steps,
                                     torch::Tensor embeddings, AttentionSetting glimpse,
                                     const torch::Tensor& actions) {
  return Attend2PackDecoder(*this, env, std::move(embeddings), glimpse, nullptr)
      .score(steps, actions);
}

}  // namespace eie::policy
