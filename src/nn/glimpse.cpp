#include "nn/glimpse.h"

#include <limits>

#include "nn/entropy_probe.h"

namespace eie::nn {

namespace {
// From this many nodes on, batched products beat broadcast-multiply-and-sum:
// the keys no longer fit in cache and the product reads them once without a
// temporary (measured: slower at n = 100, faster at n = 1600).
constexpr int64_t kBatchedProductNodes = 512;
}  // namespace

GlimpseMemory glimpse_memory(const torch::Tensor& keys, const torch::Tensor& values,
                             int64_t heads) {
  const int64_t B = keys.size(0), n = keys.size(1), d = keys.size(2) / heads;
  return {keys.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous(),
          values.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous()};
}

torch::Tensor glimpse(const GlimpseMemory& memory, const torch::Tensor& query,
                      const torch::Tensor& masked, double scale, EntropyProbe* probe) {
  const int64_t B = memory.keys.size(0), M = memory.keys.size(1), d = memory.keys.size(2);
  const int64_t n = memory.keys.size(3);
  const float minus_inf = -std::numeric_limits<float>::infinity();
  if (n < kBatchedProductNodes) {
    const auto q = query.view({B, M, d, 1}) * scale;
    auto scores = (memory.keys * q).sum(2);  // [B, M, n]
    scores = scores.masked_fill(masked.unsqueeze(1), minus_inf);
    const auto weights = torch::softmax(scores, -1).unsqueeze(2);  // [B, M, 1, n]
    if (probe) probe->add(weights.squeeze(2).transpose(0, 1));
    return (memory.values * weights).sum(-1).view({B, M * d});
  }
  const auto q = query.view({B * M, 1, d}) * scale;
  auto scores = torch::bmm(q, memory.keys.view({B * M, d, n})).view({B, M, n});
  scores = scores.masked_fill(masked.unsqueeze(1), minus_inf);
  const auto rows = torch::softmax(scores, -1);  // [B, M, n]
  if (probe) probe->add(rows.transpose(0, 1));
  const auto weights = rows.view({B * M, n, 1});
  return torch::bmm(memory.values.view({B * M, d, n}), weights).view({B, M * d});
}

torch::Tensor glimpse_steps(const GlimpseMemory& memory, const torch::Tensor& queries,
                            const torch::Tensor& masked, double scale) {
  const int64_t B = queries.size(0), T = queries.size(1);
  const int64_t M = memory.keys.size(1), d = memory.keys.size(2);
  const auto q = queries.view({B, T, M, d}).permute({0, 2, 1, 3}) * scale;  // [B, M, T, d]
  const auto weights =
      torch::softmax(torch::matmul(q, memory.keys)
                         .masked_fill(masked.unsqueeze(1), -std::numeric_limits<float>::infinity()),
                     -1);                                                      // [B, M, T, n]
  const auto heads = torch::matmul(weights, memory.values.transpose(-1, -2));  // [B, M, T, d]
  return heads.permute({0, 2, 1, 3}).reshape({B, T, M * d});
}

torch::Tensor pointer_scores(const torch::Tensor& keys, const torch::Tensor& query) {
  // One product per instance (B of them, not B M): faster than multiply-and-sum at every n.
  return torch::bmm(query.unsqueeze(1), keys).squeeze(1);
}

}  // namespace eie::nn
