#pragma once

#include <torch/torch.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "src/agent/layer_values.h"
#include "src/attention/bias_policy.h"
#include "src/attention/scale_policy.h"
#include "src/decode/decode_loop.h"
#include "src/nn/entropy_probe.h"
#include "src/problem/problem.h"
#include "src/util/attributes.h"

namespace eie {

// How attention is set at inference: a scale policy and where it applies, an
// optional window of nearest nodes (WindowParts says where), and a distance bias.
// A scale policy sees the attended count min(n, window) where the window applies, not n.
struct AttentionConfig {
  std::shared_ptr<const ScalePolicy> policy;  // null: 1/sqrt(d) everywhere (as trained)
  ScaleScope scope = ScaleScope::all;         // encoder only, or encoder and glimpse
  int64_t window = 0;                         // 0: every node
  WindowParts window_parts{};                 // where the window applies
  nn::EntropyProbes* probes = nullptr;        // when set, every layer records its entropies
  std::shared_ptr<const LayerScaleTable> calibrated{};  // when set, per-layer scales by size
  BiasSpec bias{};                                       // as trained by default
  std::shared_ptr<const LayerTable> calibrated_bias{};   // --bias entropy: per-layer betas by size
};

// What a decoding is for. Inference records no gradients. Training makes the
// log-likelihoods differentiable (and may take a faster path to them: decode without
// gradients, then score every step at once with them).
enum class Mode { inference, training };

// How many rows each instance decodes into, the K rows of an instance together:
// multi-start (K forced first actions) and sample:K (K draws from one encoding).
struct Copies {
  int64_t count = 1;            // K
  torch::Tensor first_actions;  // [B, K] forced first actions; undefined: the policy's own
};

// A policy network paired with its problem: what the trainer, solve and bench use.
class Agent {
 public:
  virtual ~Agent() = default;
  [[nodiscard]] virtual const Problem& problem() const = 0;
  // Runs the shared decode loop on a batch, in `mode`.
  // With `starts` [B, K] (Problem::start_actions), each instance is decoded K times,
  // once from each forced first action (multi-start), into K * B rows, the K rows of
  // an instance together; the encoder runs once per instance.
  [[nodiscard]] Trajectory rollout(const Instances& instances, Selection selection,
                                   std::optional<torch::Generator> generator,
                                   const torch::Tensor& starts = {},
                                   Mode mode = Mode::inference) {
    const int64_t count = starts.defined() && starts.dim() == 2 ? starts.size(1) : 1;
    return run(instances, selection, std::move(generator), {}, Copies{count, starts}, mode);
  }
  // Each instance decoded `copies` times, every action the policy's (sample:K): K B
  // rows laid out as with starts, the encoder run once per instance where the policy
  // allows it.
  [[nodiscard]] Trajectory rollout_copies(const Instances& instances, Selection selection,
                                          std::optional<torch::Generator> generator,
                                          int64_t copies) {
    return run(instances, selection, std::move(generator), {}, Copies{copies, {}}, Mode::inference);
  }
  // The policy's log-likelihood of known solutions `actions` [B, T] (teacher forcing).
  [[nodiscard]] Trajectory replay(const Instances& instances, const torch::Tensor& actions,
                                  Mode mode = Mode::inference) {
    return run(instances, Selection::replay, std::nullopt, actions, {}, mode);
  }
  [[nodiscard]] virtual torch::nn::Module& network() = 0;
  // Where the network's parameters live (its batches are moved there).
  [[nodiscard]] torch::Device device() { return network().parameters().front().device(); }
  // An independent deep copy (the rollout baseline).
  [[nodiscard]] virtual std::unique_ptr<Agent> clone() const = 0;
  // Everything needed to rebuild the network (checkpoint attributes).
  [[nodiscard]] virtual Attributes spec() const = 0;
  virtual void set_attention(const AttentionConfig& config) = 0;
  // Tiled decoding (solve() only): at most this many nodes per part; 0 = none.
  [[nodiscard]] virtual int64_t tile_size() const { return 0; }
  // The encoder's output for `instances` under the current attention config.
  [[nodiscard]] virtual torch::Tensor embed(const Instances& instances) = 0;

 protected:
  // The decode loop on a fresh environment; `replayed` as decode()'s forced actions.
  // No gradients are recorded in Mode::inference.
  [[nodiscard]] virtual Trajectory run(const Instances& instances, Selection selection,
                                       std::optional<torch::Generator> generator,
                                       const torch::Tensor& replayed, const Copies& copies,
                                       Mode mode) = 0;
};

}  // namespace eie
