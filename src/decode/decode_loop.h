#pragma once

#include <torch/torch.h>

#include <optional>

#include "src/problem/environment.h"

namespace eie {

// A policy bound to one batch (encoder already run): per step, log-probabilities
// over the actions, -inf where infeasible.
class StepPolicy {
 public:
  virtual ~StepPolicy() = default;
  [[nodiscard]] virtual torch::Tensor log_probs(const torch::Tensor& feasible) = 0;
};

// greedy: the most likely action; sample: a draw from the policy; replay: the
// given actions (teacher forcing: the log-likelihood of a known solution).
enum class Selection { greedy, sample, replay };

struct Trajectory {
  torch::Tensor actions;         // [B, T] int64
  torch::Tensor log_likelihood;  // [B], differentiable when the policy is
  torch::Tensor cost;            // [B] float32 as the environment computed it
  torch::Tensor step_log_probs;  // [B, T] log-probability of each chosen action
};

// One draw per row of `probs` [B, A] (non-negative, not normalised) by inverse CDF:
// a uniform per row from `generator` and the first action whose cumulative mass exceeds
// it, never an action without mass (a row without any: its last action). The uniforms
// come from the CPU's generator on every device; on a GPU the draw is
// sample_rows_on_device() (device_sampling.h), else sample_rows_by_tensor_ops(), there.
// (torch::multinomial draws an exponential for every entry: 12,000 logarithms per row at
// a packing position step; on the CPU, LibTorch's cumsum and searchsorted took ten tensor
// ops per decode step.)
[[nodiscard]] torch::Tensor sample_rows(const torch::Tensor& probs,
                                        const c10::optional<torch::Generator>& generator);

// sample_rows() from given `uniforms` [B] in ATen ops (a few kernels on a GPU, where the
// CPU's loop would copy every step's probabilities to the host and wait for them): sums
// in double compared in the type of `probs`, so the same draws as on the CPU.
[[nodiscard]] torch::Tensor sample_rows_by_tensor_ops(const torch::Tensor& probs,
                                                      const torch::Tensor& uniforms);

// The one decode loop: training, solve and bench all go through it.
// `forced` [B, P] holds the actions of the first P steps, whatever `selection` says:
// the whole solution for Selection::replay, a prefix (multi-start: the first action)
// otherwise. The log-likelihood counts the policy's own choices: every step for
// replay, the steps after the forced prefix otherwise.
[[nodiscard]] Trajectory decode(Environment& env, StepPolicy& policy, Selection selection,
                                std::optional<torch::Generator> generator = std::nullopt,
                                const torch::Tensor& forced = {});

// While one lives on a thread, decode() reads no value back from the device (a CUDA
// graph capturing the loop would end there): its checks of forced actions and of
// non-finite log-probabilities are the caller's (throw_if_not_finite()).
class HostChecksDeferred {
 public:
  HostChecksDeferred();
  ~HostChecksDeferred();
  HostChecksDeferred(const HostChecksDeferred&) = delete;
  HostChecksDeferred& operator=(const HostChecksDeferred&) = delete;
  [[nodiscard]] static bool active();
};

// While one lives on a thread, sample_rows() draws nothing from its generator: its n-th
// call reads its uniforms from row n of `rows` [S, B] (in the probabilities' type, on
// their device), or, where `rows` is undefined, takes 0.5 for each (a warm-up that leaves
// the generator where it was). A CUDA graph captures those reads, and each replay's
// caller first fills the rows from the generator in the order sample_rows() would have
// drawn them (one uniform_ over [S, B] draws what S calls over [B] do), so that a
// replayed rollout samples what one step by step does (GraphedRollouts).
class UniformsGiven {
 public:
  explicit UniformsGiven(torch::Tensor rows = {});
  ~UniformsGiven();
  UniformsGiven(const UniformsGiven&) = delete;
  UniformsGiven& operator=(const UniformsGiven&) = delete;
  // The innermost one on this thread, or nullptr.
  [[nodiscard]] static UniformsGiven* active();
  // The uniforms [B] of the next draw, for probabilities of `options`.
  [[nodiscard]] torch::Tensor next(int64_t B, const torch::TensorOptions& options);
  // Draws read so far.
  [[nodiscard]] int64_t used() const { return used_; }

 private:
  torch::Tensor rows_;
  int64_t used_ = 0;
  UniformsGiven* outer_;
};

// The decode loop's error for weights that produce non-finite logits, when
// `step_log_probs` holds a NaN.
void throw_if_not_finite(const torch::Tensor& step_log_probs);

// The log-likelihood of the choices a trajectory made itself: the sum of its step
// log-probabilities [B, T] after the first `forced_steps`.
[[nodiscard]] torch::Tensor own_log_likelihood(const torch::Tensor& step_log_probs,
                                               int64_t forced_steps);

// Steps a decode with `selection` and `forced` actions does not choose itself.
[[nodiscard]] int64_t forced_steps(Selection selection, const torch::Tensor& forced);

}  // namespace eie
