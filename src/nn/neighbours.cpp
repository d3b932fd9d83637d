#include "nn/neighbours.h"

#include <algorithm>

#include "nn/entropy_probe.h"

namespace eie::nn {

namespace {
constexpr int64_t kDistanceBudget = int64_t{1} << 22;  // distances materialised at once
constexpr int64_t kGatherBudget = int64_t{1} << 22;    // gathered key elements at once
}  // namespace

torch::Tensor nearest_nodes(const torch::Tensor& positions, int64_t k) {
  torch::NoGradGuard no_grad;
  const int64_t B = positions.size(0), n = positions.size(1);
  TORCH_CHECK(k >= 1 && k <= n, "nearest_nodes: k must be in [1, n]");
  const auto p = positions.to(torch::kDouble);  // exact enough that ties are real ties
  const int64_t rows = std::max<int64_t>(1, kDistanceBudget / n);
  std::vector<torch::Tensor> parts;
  for (int64_t b = 0; b < B; ++b) {
    std::vector<torch::Tensor> blocks;
    for (int64_t r = 0; r < n; r += rows) {
      const auto block = p[b].slice(0, r, std::min(n, r + rows));                 // [r, 2]
      const auto distance = (block.unsqueeze(1) - p[b].unsqueeze(0)).pow(2).sum(-1);  // [r, n]
      // A stable sort puts equal distances in index order (topk does not promise it).
      blocks.push_back(std::get<1>(distance.sort(true, -1, false)).slice(1, 0, k));
    }
    parts.push_back(torch::cat(blocks, 0));
  }
  return torch::stack(parts, 0);
}

torch::Tensor windowed_attention(const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, const torch::Tensor& neighbours,
                                 double scale, EntropyProbe* probe) {
  const int64_t B = q.size(0), M = q.size(1), n = q.size(2), d = q.size(3);
  const int64_t K = neighbours.size(2);
  const int64_t rows = std::max<int64_t>(1, kGatherBudget / (M * K * d));
  std::vector<torch::Tensor> parts;
  for (int64_t b = 0; b < B; ++b) {
    std::vector<torch::Tensor> blocks;
    for (int64_t r = 0; r < n; r += rows) {
      const int64_t e = std::min(n, r + rows);
      const auto index = neighbours[b].slice(0, r, e).reshape({-1});            // [(e-r) K]
      const auto keys = k[b].index_select(1, index).view({M, e - r, K, d});     // [M, r, K, d]
      const auto values = v[b].index_select(1, index).view({M, e - r, K, d});
      const auto query = q[b].slice(1, r, e).unsqueeze(2) * scale;              // [M, r, 1, d]
      const auto weights = torch::softmax(torch::matmul(query, keys.transpose(-1, -2)), -1);
      if (probe) probe->add(weights.view({M, e - r, K}));
      blocks.push_back(torch::matmul(weights, values).squeeze(2));              // [M, r, d]
    }
    parts.push_back(torch::cat(blocks, 1));
  }
  return torch::stack(parts, 0);
}

}  // namespace eie::nn
