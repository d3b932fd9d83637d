#include "src/decode/decode_loop.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/decode/device_sampling.h"
#include "src/decode/draw_row.h"

namespace eie {

namespace {

// sample_rows() on rows of `probs` [B, A] (contiguous, on the CPU) with one uniform
// each (the draws of the tensor-op version this replaced, bit for bit).
template <typename T>
void draw_rows(const T* probs, const T* uniforms, int64_t B, int64_t A, int64_t* drawn) {
  for (int64_t b = 0; b < B; ++b) drawn[b] = draw_row(probs + b * A, A, uniforms[b]);
}

// The draws from given uniforms [B] on the probabilities' device, on a GPU in one kernel
// where it applies.
torch::Tensor sample_rows_given(const torch::Tensor& probs, const torch::Tensor& uniforms) {
  if (auto drawn = sample_rows_on_device(probs, uniforms); drawn.defined()) return drawn;
  return sample_rows_by_tensor_ops(probs, uniforms);
}

}  // namespace

torch::Tensor sample_rows_by_tensor_ops(const torch::Tensor& probs, const torch::Tensor& uniforms) {
  const int64_t A = probs.size(1);
  const auto cumulative = probs.to(torch::kDouble).cumsum(1);
  const auto target = uniforms * cumulative.select(1, A - 1).to(probs.scalar_type());
  const auto above = cumulative.to(probs.scalar_type()) > target.unsqueeze(1);
  const auto columns = torch::arange(A, probs.options().dtype(torch::kLong));
  // The first column above the target (A where none is), and the last with mass.
  const auto first_above = columns.masked_fill(above.logical_not(), A).amin(1);
  const auto last = columns.masked_fill(probs <= 0, -1).amax(1);
  return torch::minimum(first_above, torch::where(last < 0, torch::full_like(last, A - 1), last));
}

torch::Tensor sample_rows(const torch::Tensor& probs, const c10::optional<torch::Generator>& gen) {
  TORCH_CHECK(probs.dim() == 2 && probs.size(1) > 0, "sample_rows: probabilities [B, A], A > 0");
  if (auto* given = UniformsGiven::active()) {
    return sample_rows_given(probs, given->next(probs.size(0), probs.options()));
  }
  // The generators are the CPU's: the uniforms are drawn there on every device.
  const auto on_host = probs.options().device(torch::kCPU);
  if (!probs.is_cpu()) {
    // Drawn into pinned memory: a copy from pageable memory may wait for the device's
    // queue, a pinned one does not (torch::rand's values: uniform_ on [0, 1)).
    const auto uniforms =
        torch::empty({probs.size(0)}, on_host.pinned_memory(true)).uniform_(0, 1, gen);
    return sample_rows_given(probs, uniforms.to(probs.device(), /*non_blocking=*/true));
  }
  const auto uniforms = torch::rand({probs.size(0)}, gen, on_host);
  const auto p = probs.contiguous();
  auto drawn = torch::empty({p.size(0)}, torch::kLong);
  AT_DISPATCH_FLOATING_TYPES(p.scalar_type(), "sample rows", [&] {
    draw_rows(p.data_ptr<scalar_t>(), uniforms.data_ptr<scalar_t>(), p.size(0), p.size(1),
              drawn.data_ptr<int64_t>());
  });
  return drawn;
}

Trajectory decode(Environment& env, StepPolicy& policy, Selection selection,
                  std::optional<torch::Generator> generator, const torch::Tensor& forced) {
  if (selection == Selection::replay && !forced.defined()) {
    throw std::invalid_argument("decode: replay needs the actions to replay");
  }
  const int64_t prefix = forced.defined() ? forced.size(1) : 0;
  const c10::optional<torch::Generator> sampler =
      generator ? c10::optional<torch::Generator>(*generator) : c10::nullopt;
  std::vector<torch::Tensor> actions, step_log_probs;
  // Per step, whether each forced action was feasible, [B, 1] where the environment
  // keeps its masks: read once, after the loop or before any other error it may
  // explain, so that no step waits for the host. (An infeasible step cannot loop for
  // ever: the loop stops after max_steps().)
  std::vector<torch::Tensor> forced_feasible;
  const auto check = [&] {
    if (HostChecksDeferred::active()) return;
    torch::NoGradGuard no_grad;
    if (!forced_feasible.empty() && !torch::cat(forced_feasible, 1).all().item<bool>()) {
      throw std::invalid_argument(selection == Selection::replay
                                      ? "decode: a replayed action is infeasible"
                                      : "decode: a forced first action is infeasible");
    }
    if (!step_log_probs.empty()) throw_if_not_finite(torch::cat(step_log_probs));
  };
  const auto minus_inf = -std::numeric_limits<double>::infinity();
  const int64_t max_steps = env.max_steps();
  while (!env.done()) {
    if (static_cast<int64_t>(actions.size()) >= max_steps) {
      check();
      throw std::runtime_error("decode: no solution after " + std::to_string(max_steps) +
                               " steps, the most this problem needs");
    }
    const auto feasible = env.feasible();
    const auto log_p = policy.log_probs(feasible);
    const auto step = static_cast<int64_t>(actions.size());
    torch::Tensor action;
    {
      torch::NoGradGuard no_grad;
      if (step < prefix) {
        action = forced.select(1, step);
        // A host environment (packing) keeps its masks on the CPU, whatever the policy's device.
        forced_feasible.push_back(feasible.gather(1, action.to(feasible.device()).unsqueeze(1)));
      } else if (selection == Selection::replay) {
        check();
        throw std::invalid_argument("decode: the replayed solutions end before the problem does");
      } else {
        // Feasible actions only, whatever the policy gives: finite logits, however large,
        // leave a finite maximum there, but a NaN (weights that are not finite or
        // overflow) would win greedy's argmax, masked or not, and leave a sample without
        // mass. NaN counts as 0 here, so the environment still steps a feasible action,
        // and check() reports it after the loop.
        const auto scores =
            torch::where(feasible.to(log_p.device()), log_p.nan_to_num(0), minus_inf);
        action =
            selection == Selection::greedy ? scores.argmax(1) : sample_rows(scores.exp(), sampler);
      }
    }
    step_log_probs.push_back(log_p.gather(1, action.unsqueeze(1)).squeeze(1));
    actions.push_back(action);
    env.step(action);
  }
  check();
  Trajectory t;
  t.actions = torch::stack(actions, 1);
  t.step_log_probs = torch::stack(step_log_probs, 1);
  t.log_likelihood = own_log_likelihood(t.step_log_probs, forced_steps(selection, forced));
  t.cost = env.cost().to(t.actions.device());  // a host environment's too: where the policy is
  return t;
}

namespace {
thread_local int deferred_checks = 0;
thread_local UniformsGiven* innermost_uniforms = nullptr;
}  // namespace

HostChecksDeferred::HostChecksDeferred() { ++deferred_checks; }
HostChecksDeferred::~HostChecksDeferred() { --deferred_checks; }
bool HostChecksDeferred::active() { return deferred_checks > 0; }

UniformsGiven::UniformsGiven(torch::Tensor rows)
    : rows_(std::move(rows)), outer_(innermost_uniforms) {
  TORCH_CHECK(!rows_.defined() || rows_.dim() == 2, "UniformsGiven: rows [S, B]");
  innermost_uniforms = this;
}
UniformsGiven::~UniformsGiven() { innermost_uniforms = outer_; }
UniformsGiven* UniformsGiven::active() { return innermost_uniforms; }

torch::Tensor UniformsGiven::next(int64_t B, const torch::TensorOptions& options) {
  const int64_t row = used_++;
  if (!rows_.defined()) return torch::full({B}, 0.5, options);
  TORCH_CHECK(row < rows_.size(0) && rows_.size(1) == B &&
                  rows_.scalar_type() == options.dtype().toScalarType() &&
                  rows_.device() == options.device(),
              "UniformsGiven: draw ", row, " of ", B, " rows does not fit the given ",
              rows_.sizes(), " ", rows_.options());
  return rows_.select(0, row);
}

void throw_if_not_finite(const torch::Tensor& step_log_probs) {
  torch::NoGradGuard no_grad;
  if (step_log_probs.isnan().any().item<bool>()) {
    throw std::runtime_error(
        "decode: the model's weights produce non-finite logits on these inputs");
  }
}

torch::Tensor own_log_likelihood(const torch::Tensor& step_log_probs, int64_t forced_steps) {
  return step_log_probs.slice(1, std::min(forced_steps, step_log_probs.size(1))).sum(1);
}

int64_t forced_steps(Selection selection, const torch::Tensor& forced) {
  return selection == Selection::replay || !forced.defined() ? 0 : forced.size(1);
}

}  // namespace eie
