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
  const int64_t rows = std::max<int64_t>(1, kDistanceBudget / n);
  std::vector<torch::Tensor> parts;
  for (int64_t b = 0; b < B; ++b) {
    std::vector<torch::Tensor> blocks;
    for (int64_t r = 0; r < n; r += rows) {
      const auto block = positions[b].slice(0, r, std::min(n, r + rows));              // [r, 2]
      const auto distance = (block.unsqueeze(1) - positions[b].unsqueeze(0)).pow(2).sum(-1);
      // A partial selection, not a sort: O(n) per row. Exact ties at the window's
      // edge are broken by the selection, not by index.
      blocks.push_back(std::get<1>(distance.topk(k, 1, false, true)));
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
  // Node-major [n, M, d] copies: gathering a neighbour is then one contiguous row.
  const auto node_major = [](const torch::Tensor& t) { return t.permute({0, 2, 1, 3}).contiguous(); };
  const auto qn = node_major(q) * scale, kn = node_major(k), vn = node_major(v);
  const int64_t rows = std::max<int64_t>(1, kGatherBudget / (M * K * d));
  std::vector<torch::Tensor> parts;
  for (int64_t b = 0; b < B; ++b) {
    std::vector<torch::Tensor> blocks;
    for (int64_t r = 0; r < n; r += rows) {
      const int64_t e = std::min(n, r + rows);
      const auto index = neighbours[b].slice(0, r, e).reshape({-1});             // [(e-r) K]
      const auto keys = kn[b].index_select(0, index).view({e - r, K, M, d});
      const auto values = vn[b].index_select(0, index).view({e - r, K, M, d});
      const auto query = qn[b].slice(0, r, e).unsqueeze(1);                      // [r, 1, M, d]
      const auto weights = torch::softmax((keys * query).sum(-1), 1);           // [r, K, M]
      if (probe) probe->add(weights.permute({2, 0, 1}));
      blocks.push_back((values * weights.unsqueeze(-1)).sum(1));                 // [r, M, d]
    }
    parts.push_back(torch::cat(blocks, 0));
  }
  return torch::stack(parts, 0).permute({0, 2, 1, 3});  // [B, M, n, d]
}

}  // namespace eie::nn
