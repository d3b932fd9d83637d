#include "nn/glimpse.h"

#include <limits>

namespace eie::nn {

GlimpseMemory glimpse_memory(const torch::Tensor& keys, const torch::Tensor& values,
                             int64_t heads) {
  const int64_t B = keys.size(0), n = keys.size(1), d = keys.size(2) / heads;
  return {keys.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous(),
          values.view({B, n, heads, d}).permute({0, 2, 3, 1}).contiguous()};
}

torch::Tensor glimpse(const GlimpseMemory& memory, const torch::Tensor& query,
                      const torch::Tensor& masked, double scale) {
  const int64_t B = memory.keys.size(0), M = memory.keys.size(1), d = memory.keys.size(2);
  const auto q = query.view({B, M, d, 1}) * scale;
  auto scores = (memory.keys * q).sum(2);  // [B, M, n]
  scores = scores.masked_fill(masked.unsqueeze(1), -std::numeric_limits<float>::infinity());
  const auto weights = torch::softmax(scores, -1).unsqueeze(2);  // [B, M, 1, n]
  return (memory.values * weights).sum(-1).view({B, M * d});
}

}  // namespace eie::nn
