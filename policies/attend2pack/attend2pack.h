#pragma once

#include <torch/torch.h>

#include <memory>

#include "attention/setting.h"
#include "bpp3d/environment.h"
#include "decode/decode_loop.h"
#include "nn/encoder.h"

namespace eie::policy {

struct Attend2PackOptions {
  nn::EncoderOptions encoder;  // box encoder (every scale policy applies to it)
  double tanh_clip = 10.0;     // C in C * tanh(logits), box and position logits
};

// attend2pack (Zhang et al. 2021) for offline 3D packing, two decisions per box.
// Sequence policy: the box encoder, then a pointer over (unpacked box,
// orientation) pairs whose query is the mean box embedding plus a summary of the
// bin, refined by a glimpse over the unpacked boxes, plus a linear read of each
// pair's extents and volume. Placement policy: a CNN
// (2 -> 4 -> 4 -> 4 channels, kernel 3, stride 2, padding 1) over the height map
// and the chosen footprint's resting heights gives coarse features per 8 x 8
// block; the chosen box's embedding is added to them and a 1 x 1 convolution
// makes one coarse logit per block; each position adds a linear read of its own
// resting height, the height it would add and the empty space it would cover.
// Logits exist only at bottom-left corner candidates (the environment's mask).
class Attend2PackImpl : public torch::nn::Module {
 public:
  explicit Attend2PackImpl(const Attend2PackOptions& options);

  // Box embeddings [B, n, E].
  torch::Tensor encode(const bpp3d::Bpp3dEnvironment& env,
                       const std::vector<AttentionSetting>& settings);
  // Encodes and returns the per-step policy bound to `env` (which must outlive it).
  std::unique_ptr<StepPolicy> start(const bpp3d::Bpp3dEnvironment& env, const AttentionPlan& plan);

  [[nodiscard]] const Attend2PackOptions& options() const { return options_; }

  torch::nn::Linear init_embed{nullptr};              // box sides -> E
  nn::Encoder encoder{nullptr};                       // box encoder
  torch::nn::Linear project_box_embeddings{nullptr};  // E -> [glimpse K | glimpse V]
  torch::nn::Linear project_pointer_keys{nullptr};    // E -> 6 E: one key per orientation
  torch::nn::Linear project_fixed_context{nullptr};   // mean box embedding -> E
  torch::nn::Linear project_bin{nullptr};             // bin summary (4) -> E
  torch::nn::Linear project_out{nullptr};             // glimpse heads -> E
  torch::nn::Linear orientation_prior{nullptr};       // (dx, dy, dz, volume) -> box logit term
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};  // placement CNN
  torch::nn::Linear box_to_map{nullptr};      // chosen box embedding -> 4 channels
  torch::nn::Conv2d coarse_logit{nullptr};    // 4 channels -> 1 logit per block
  torch::nn::Linear position_logit{nullptr};  // 3 position features -> 1

 private:
  Attend2PackOptions options_;
};
TORCH_MODULE(Attend2Pack);

}  // namespace eie::policy
