#include "src/nn/glimpse.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "src/nn/device_kernels.h"
#include "src/nn/entropy_probe.h"
#include "src/nn/fused_attention.h"
#include "src/nn/fused_pointer.h"
#include "src/nn/head_kernels.h"
#include "src/nn/kernel_operands.h"

namespace eie::nn {

namespace {
// Where the kernels do not apply on the CPU (gradients recorded, other types): from this
// many nodes on, batched products beat broadcast-multiply-and-sum: the keys no longer
// fit in cache and the product reads them once without a temporary (measured: slower
// at n = 100, faster at n = 1600). On a GPU the product always: one kernel, no temporary.
constexpr int64_t kBatchedProductNodes = 512;

bool broadcast_product(const torch::Tensor& t, int64_t n) {
  return t.is_cpu() && n < kBatchedProductNodes;
}
// Most attention scores glimpse_steps() holds at once (256 MB of float32).
constexpr int64_t kMaxStepScores = int64_t{1} << 26;

// Without gradients, on the CPU, the glimpse runs on head_kernels.h (`t` and `memory`
// of one floating type).
bool kernels_apply(const torch::Tensor& t, const torch::Tensor& memory) {
  return !torch::GradMode::is_enabled() && kernel_operand(t) &&
         memory.scalar_type() == t.scalar_type();
}

// A kernel of head_kernels.h over `memory` [B, M, d, n] (keys or values) and `operand`
// of the same type, into a fresh tensor of `shape`.
template <typename Kernel>
torch::Tensor run_kernel(const torch::Tensor& memory, const torch::Tensor& operand,
                         std::vector<int64_t> shape, const Kernel& kernel) {
  const auto data = memory.contiguous(), other = operand.contiguous();
  const int64_t G = data.size(0) * data.size(1), d = data.size(2), n = data.size(3);
  auto out = torch::empty(shape, operand.options());
  AT_DISPATCH_FLOATING_TYPES(operand.scalar_type(), "glimpse kernel", [&] {
    kernel(data.data_ptr<scalar_t>(), other.data_ptr<scalar_t>(), G, d, n,
           out.data_ptr<scalar_t>());
  });
  return out;
}

// scale * q.k for queries q [B, M, d]: [B, M, n].
torch::Tensor head_scores(const GlimpseMemory& memory, const torch::Tensor& q) {
  const int64_t B = q.size(0), M = q.size(1), d = q.size(2), n = memory.keys.size(3);
  if (kernels_apply(q, memory.keys)) {
    return run_kernel(memory.keys, q, {B, M, n}, [](auto... args) { query_key_products(args...); });
  }
  if (broadcast_product(q, n)) return (memory.keys * q.unsqueeze(-1)).sum(2);
  return torch::bmm(q.reshape({B * M, 1, d}), memory.keys.view({B * M, d, n})).view({B, M, n});
}

// The values weighted by attention rows [B, M, n]: [B, M * d].
torch::Tensor head_mix(const GlimpseMemory& memory, const torch::Tensor& rows) {
  const int64_t B = rows.size(0), M = rows.size(1), n = rows.size(2), d = memory.values.size(2);
  if (kernels_apply(rows, memory.values)) {
    return run_kernel(memory.values, rows, {B, M * d},
                      [](auto... args) { weighted_value_sums(args...); });
  }
  if (broadcast_product(rows, n)) {
    return (memory.values * rows.unsqueeze(2)).sum(-1).view({B, M * d});
  }
  return torch::bmm(memory.values.view({B * M, d, n}), rows.reshape({B * M, n, 1}))
      .view({B, M * d});
}
}  // namespace

GlimpseMemory glimpse_memory(const torch::Tensor& keys, const torch::Tensor& values,
                             int64_t heads) {
  const int64_t B = keys.size(0), n = keys.size(1), d = keys.size(2) / heads;
  return {keys.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous(),
          values.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous()};
}

torch::Tensor glimpse(const GlimpseMemory& memory, const torch::Tensor& query,
                      const torch::Tensor& masked, double scale, EntropyProbe* probe,
                      const ScoreBias& bias) {
  if (!probe) {
    if (auto on_device = glimpse_on_device(memory, query, masked, scale, bias);
        on_device.defined()) {
      return on_device;
    }
  }
  const int64_t B = memory.keys.size(0), M = memory.keys.size(1), d = memory.keys.size(2);
  auto scores = head_scores(memory, query.view({B, M, d}) * scale);  // [B, M, n]
  if (bias.applies()) scores = scores - bias.offsets();
  scores = masked_scores(scores, masked.unsqueeze(1));
  const auto rows = torch::softmax(scores, -1);  // [B, M, n]
  if (probe) probe->add(rows.transpose(0, 1));
  return head_mix(memory, rows);
}

torch::Tensor glimpse_steps(const GlimpseMemory& memory, const torch::Tensor& queries,
                            const torch::Tensor& masked, double scale, const ScoreBias& bias) {
  const int64_t B = queries.size(0), T = queries.size(1);
  const int64_t M = memory.keys.size(1), d = memory.keys.size(2), n = memory.keys.size(3);
  if (queries.is_cuda()) {  // as B T query rows: one kernel where it applies
    const auto bias_rows =
        bias.applies() ? ScoreBias{bias.beta, bias.distance.flatten(0, 1)} : bias;
    if (auto on_device = glimpse_on_device(memory, queries.flatten(0, 1), masked.flatten(0, 1),
                                           scale, bias_rows);
        on_device.defined()) {
      return on_device.view({B, T, M * d});
    }
  }
  // The [B, M, T, n] scores a chunk of queries at a time: a multi-start step scores
  // K T queries per instance (6,400 trajectories of n = 100: 2 GB per such tensor).
  const int64_t chunk = std::max<int64_t>(1, kMaxStepScores / (B * M * n));
  if (T > chunk) {
    std::vector<torch::Tensor> parts;
    for (int64_t begin = 0; begin < T; begin += chunk) {
      const int64_t end = std::min(T, begin + chunk);
      const auto part_bias =
          bias.applies() ? ScoreBias{bias.beta, bias.distance.slice(1, begin, end)} : bias;
      parts.push_back(glimpse_steps(memory, queries.slice(1, begin, end),
                                    masked.slice(1, begin, end), scale, part_bias));
    }
    return torch::cat(parts, 1);
  }
  const auto q = queries.view({B, T, M, d}).permute({0, 2, 1, 3});  // [B, M, T, d]
  if (fused_attention_applies(q, memory.keys)) {
    return fused_attention(q, memory.keys.transpose(-1, -2), memory.values.transpose(-1, -2), scale,
                           bias, masked)
        .permute({0, 2, 1, 3})
        .reshape({B, T, M * d});
  }
  auto scores = torch::matmul(q * scale, memory.keys);  // [B, M, T, n]
  if (bias.applies()) scores = scores - bias.offsets();
  // In place: the product's backward needs its inputs, not its output.
  scores = masked_scores(scores, masked.unsqueeze(1));
  const auto weights = torch::softmax(scores, -1);
  const auto heads = torch::matmul(weights, memory.values.transpose(-1, -2));  // [B, M, T, d]
  return heads.permute({0, 2, 1, 3}).reshape({B, T, M * d});
}

torch::Tensor masked_scores(torch::Tensor scores, const torch::Tensor& masked) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  if (!scores.requires_grad()) return scores.masked_fill_(masked, minus_inf);
  return scores.add_(
      torch::zeros(masked.sizes(), scores.options()).masked_fill_(masked, minus_inf));
}

torch::Tensor pointer_log_probs_of_scores(const torch::Tensor& scores, int64_t dim, double clip,
                                          const torch::Tensor& beta, const torch::Tensor& distance,
                                          const torch::Tensor& masked) {
  auto logits = torch::tanh(scores / std::sqrt(static_cast<double>(dim))) * clip;
  if (beta.defined() && distance.defined()) logits = logits - beta * distance;
  return torch::log_softmax(masked_scores(logits, masked), -1);
}

torch::Tensor pointer_log_probs(const torch::Tensor& keys, const torch::Tensor& query, double clip,
                                const torch::Tensor& beta, const torch::Tensor& distance,
                                const torch::Tensor& masked) {
  if (query.dim() == 3) {  // [B, T, E]: T query rows per instance
    if (query.is_cuda()) {
      const auto distance_rows = distance.defined() ? distance.flatten(0, 1) : distance;
      if (auto on_device = pointer_log_probs_on_device(keys, query.flatten(0, 1), clip, beta,
                                                       distance_rows, masked.flatten(0, 1));
          on_device.defined()) {
        return on_device.view({query.size(0), query.size(1), keys.size(2)});
      }
    }
    if (fused_pointer_applies(query, keys, beta)) {
      return fused_pointer_log_probs(keys, query, clip, beta, distance, masked);
    }
    return pointer_log_probs_of_scores(torch::matmul(query, keys), keys.size(1), clip, beta,
                                       distance, masked);
  }
  if (auto on_device = pointer_log_probs_on_device(keys, query, clip, beta, distance, masked);
      on_device.defined()) {
    return on_device;
  }
  if (fused_pointer_applies(query, keys, beta)) {  // with gradients: as one query row each
    const auto rows = [](const torch::Tensor& t) { return t.defined() ? t.unsqueeze(1) : t; };
    return fused_pointer_log_probs(keys, query.unsqueeze(1), clip, beta, rows(distance),
                                   rows(masked))
        .squeeze(1);
  }
  // Without gradients on the CPU, head_kernels.h's products (one group per instance: no
  // per-instance dispatch, as bmm's was); else one product per instance (B of them, not
  // B M): faster than multiply-and-sum at every n.
  const int64_t B = keys.size(0), E = keys.size(1), n = keys.size(2);
  const auto scores = kernels_apply(query, keys)
                          ? run_kernel(keys.view({B, 1, E, n}), query, {B, n},
                                       [](auto... args) { query_key_products(args...); })
                          : torch::bmm(query.unsqueeze(1), keys).squeeze(1);
  return pointer_log_probs_of_scores(scores, keys.size(1), clip, beta, distance, masked);
}

}  // namespace eie::nn
