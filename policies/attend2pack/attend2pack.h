#pragma once

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "problems/bpp3d/environment.h"
#include "src/attention/setting.h"
#include "src/decode/decode_loop.h"
#include "src/nn/encoder.h"

namespace eie::policy {

struct Attend2PackOptions {
  nn::EncoderOptions encoder;  // box encoder (every scale policy applies to it)
  double tanh_clip = 10.0;     // C in C * tanh(logits), box and position logits
};

// The inputs of every step of a decoding, kept to score it in one pass (training).
struct PackingSteps {
  std::vector<torch::Tensor> bins, fits, feasible;  // box steps: [B, 4], [B, 6 n, 2], [B, 6 n]
  std::vector<torch::Tensor> maps, chosen;          // position steps: [B, 2, L, W] and [B]
  std::vector<bpp3d::Bpp3dEnvironment::Candidates> candidates;  // position steps
};

// attend2pack (Zhang et al. 2021) for offline 3D packing, two decisions per box.
// Sequence policy: the box encoder, then a pointer over (unpacked box,
// orientation) pairs whose query is the mean box embedding plus a summary of the
// bin, refined by a glimpse over the unpacked boxes. Placement policy: a CNN
// (2 -> 4 -> 4 -> 4 channels, kernel 3, stride 2, padding 1) over the height map
// and the chosen footprint's resting heights gives coarse features per 8 x 8
// block; the chosen box's embedding is added to them and a 1 x 1 convolution
// makes one coarse logit per block. Both logits are tanh-clipped, then linear
// preferences are added outside the clip: of each (box, orientation) pair's extents
// and volume and of where it would rest lowest now (the environment's
// fit_features), and of each position's resting height, the height it would add
// and the empty space it would cover. Positions are the bottom-left corner
// candidates (the environment's mask).
class Attend2PackImpl : public torch::nn::Module {
 public:
  explicit Attend2PackImpl(const Attend2PackOptions& options);

  // Box embeddings [B, n, E].
  torch::Tensor encode(const bpp3d::Bpp3dEnvironment& env,
                       const std::vector<AttentionSetting>& settings);
  // The per-step policy bound to `env` (which must outlive it) over its box
  // embeddings; with `record`, it keeps every step's inputs there.
  std::unique_ptr<StepPolicy> start(const bpp3d::Bpp3dEnvironment& env, torch::Tensor embeddings,
                                    AttentionSetting glimpse, PackingSteps* record = nullptr);
  // Log-probabilities [B, T] of the decoded `actions` from their recorded steps, all
  // at once: the values (and gradients) of decoding with gradients, in batched products.
  // Of `env` (finished by then) it reads only what decoding does not change: the
  // boxes' orientations and the base.
  torch::Tensor score(const bpp3d::Bpp3dEnvironment& env, const PackingSteps& steps,
                      torch::Tensor embeddings, AttentionSetting glimpse,
                      const torch::Tensor& actions);

  [[nodiscard]] const Attend2PackOptions& options() const { return options_; }

  torch::nn::Linear init_embed{nullptr};              // box sides -> E
  nn::Encoder encoder{nullptr};                       // box encoder
  torch::nn::Linear project_box_embeddings{nullptr};  // E -> [glimpse K | glimpse V]
  torch::nn::Linear project_pointer_keys{nullptr};    // E -> 6 E: one key per orientation
  torch::nn::Linear project_fixed_context{nullptr};   // mean box embedding -> E
  torch::nn::Linear project_bin{nullptr};             // bin summary (4) -> E
  torch::nn::Linear project_out{nullptr};             // glimpse heads -> E
  torch::nn::Linear box_preference{nullptr};          // (dx, dy, dz, volume) -> box logit term
  torch::nn::Linear fit_preference{nullptr};          // (lowest rest, raise of H) -> box logit term
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};  // placement CNN
  torch::nn::Linear box_to_map{nullptr};           // chosen box embedding -> 4 channels
  torch::nn::Conv2d coarse_logit{nullptr};         // 4 channels -> 1 logit per block
  torch::nn::Linear position_preference{nullptr};  // 3 position features -> 1

 private:
  Attend2PackOptions options_;
};
TORCH_MODULE(Attend2Pack);

}  // namespace eie::policy
