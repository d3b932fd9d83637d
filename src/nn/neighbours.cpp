#include "src/nn/neighbours.h"

#include <algorithm>
#include <vector>

#include "src/nn/entropy_probe.h"
#include "src/nn/window_kernels.h"

namespace eie::nn {

namespace {
constexpr int64_t kGatherBudget = int64_t{1} << 22;    // gathered key elements at once
constexpr int64_t kSortBudget = int64_t{1} << 23;      // node pairs sorted at once
}  // namespace

torch::Tensor nearest_nodes_by_sorting(const torch::Tensor& positions, int64_t k) {
  const int64_t B = positions.size(0), n = positions.size(1);
  TORCH_CHECK(k >= 1 && k <= n, "nearest_nodes: k must be in [1, n]");
  // Squared distances in double from float positions, as the grid search measures them;
  // the stable sort breaks ties by index, as its sort of (distance, index) pairs does.
  const auto xy = positions.detach().to(torch::kFloat).to(torch::kDouble);
  const int64_t rows = std::max<int64_t>(1, kSortBudget / (n * n));
  std::vector<torch::Tensor> parts;
  for (int64_t b = 0; b < B; b += rows) {
    const auto p = xy.slice(0, b, std::min(B, b + rows));
    const auto squared = (p.unsqueeze(2) - p.unsqueeze(1)).pow(2).sum(-1);  // [rows, n, n]
    parts.push_back(std::get<1>(squared.sort(c10::optional<bool>(true), -1)).slice(2, 0, k));
  }
  return torch::cat(parts).contiguous();
}

torch::Tensor nearest_nodes(const torch::Tensor& positions, int64_t k) {
  const int64_t B = positions.size(0), n = positions.size(1);
  TORCH_CHECK(k >= 1 && k <= n, "nearest_nodes: k must be in [1, n]");
  // On a GPU the search stays there: no copy to the host, so a rollout that windows its
  // encoder can be captured as a CUDA graph (src/agent/graphed_rollouts.h).
  if (!positions.is_cpu()) return nearest_nodes_by_sorting(positions, k);
  const auto xy = positions.detach().to(torch::kCPU, torch::kFloat).contiguous();
  auto out = torch::empty({B, n, k}, torch::kLong);
  for (int64_t b = 0; b < B; ++b) {
    grid_nearest(xy[b].data_ptr<float>(), n, k, out[b].data_ptr<int64_t>());
  }
  return out.to(positions.device());
}

torch::Tensor windowed_attention(const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, const torch::Tensor& neighbours,
                                 double scale, EntropyProbe* probe, const ScoreBias& bias) {
  const int64_t B = q.size(0), M = q.size(1), n = q.size(2), d = q.size(3);
  const int64_t K = neighbours.size(2);
  // Node-major [n, M, d] copies: gathering a neighbour is then one contiguous row.
  const auto node_major = [](const torch::Tensor& t) { return t.permute({0, 2, 1, 3}).contiguous(); };
  const bool differentiable = q.requires_grad() || k.requires_grad() || v.requires_grad() ||
                             (bias.applies() && bias.beta.requires_grad());
  if (!differentiable && !probe && q.scalar_type() == torch::kFloat && q.device().is_cpu()) {
    const auto qn = node_major(q), kn = node_major(k), vn = node_major(v);
    const auto near = neighbours.to(torch::kLong).contiguous();
    auto out = torch::empty_like(qn);
    const auto distance = bias.applies() ? bias.distance.to(torch::kFloat).contiguous() : torch::Tensor();
    const auto beta = bias.applies() ? bias.beta.to(torch::kFloat).contiguous() : torch::Tensor();
    for (int64_t b = 0; b < B; ++b) {
      windowed_attention_rows(qn[b].data_ptr<float>(), kn[b].data_ptr<float>(),
                              vn[b].data_ptr<float>(), near[b].data_ptr<int64_t>(), n, M, d, K,
                              static_cast<float>(scale), out[b].data_ptr<float>(),
                              bias.applies() ? distance[b].data_ptr<float>() : nullptr,
                              bias.applies() ? beta.data_ptr<float>() : nullptr);
    }
    return out.permute({0, 2, 1, 3});
  }
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
      auto products = (keys * query).sum(-1);                                    // [r, K, M]
      if (bias.applies()) {
        products = products - bias.distance[b].slice(0, r, e).unsqueeze(2) * bias.beta.view({1, 1, M});
      }
      const auto weights = torch::softmax(products, 1);
      if (probe) probe->add(weights.permute({2, 0, 1}));
      blocks.push_back((values * weights.unsqueeze(-1)).sum(1));                 // [r, M, d]
    }
    parts.push_back(torch::cat(blocks, 0));
  }
  return torch::stack(parts, 0).permute({0, 2, 1, 3});  // [B, M, n, d]
}

}  // namespace eie::nn
