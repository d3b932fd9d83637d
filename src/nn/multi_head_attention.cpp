#include "src/nn/multi_head_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "src/nn/entropy_probe.h"
#include "src/nn/fused_attention.h"
#include "src/nn/neighbours.h"

namespace eie::nn {

MultiHeadAttentionImpl::MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options)
    : options_(options) {
  TORCH_CHECK(options.embed_dim % options.heads == 0, "embed_dim must be a multiple of heads");
  const int64_t d = options.embed_dim / options.heads;
  // Uniform(-1/sqrt(last dim), +) as in the reference implementation.
  const auto init = [&](std::vector<int64_t> shape) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(shape.back()));
    return torch::empty(shape).uniform_(-bound, bound);
  };
  W_query = register_parameter("W_query", init({options.heads, options.embed_dim, d}));
  W_key = register_parameter("W_key", init({options.heads, options.embed_dim, d}));
  W_val = register_parameter("W_val", init({options.heads, options.embed_dim, d}));
  W_out = register_parameter("W_out", init({options.heads, d, options.embed_dim}));
  const auto& bias = options.trained_bias;
  if (bias.enabled) {
    distance_bias = register_parameter(kEncoderBetas,
                                       torch::full({options.heads}, bias.encoder_init), bias.learn);
  }
}

torch::Tensor MultiHeadAttentionImpl::betas(const AttentionSetting& setting,
                                            const NodeGeometry& geometry) const {
  auto beta = head_betas(setting.bias, distance_bias, options_.heads, W_query.options());
  if (beta.defined() && !geometry.positions.defined()) {
    throw std::invalid_argument("a distance bias needs node positions");
  }
  return beta;
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::project(
    const torch::Tensor& h) {
  const int64_t B = h.size(0), n = h.size(1), E = options_.embed_dim, M = options_.heads;
  const int64_t d = E / M;
  // One matmul for q, k and v: (E, 3*M*d), head-major inside each block.
  const auto weights = torch::cat({W_query, W_key, W_val}, 0)  // (3M, E, d)
                           .permute({1, 0, 2})
                           .reshape({E, 3 * M * d});
  const auto qkv = h.matmul(weights).view({B, n, 3, M, d}).permute({2, 0, 3, 1, 4});
  if (options_.cosine_scale <= 0) return {qkv[0], qkv[1], qkv[2]};
  // CosScale: unit queries and keys; s * sqrt(d) so that the scale 1/sqrt(d) gives s
  // and inference scale policies multiply it as they would multiply 1/sqrt(d).
  namespace F = torch::nn::functional;
  const auto unit = F::NormalizeFuncOptions().dim(-1).eps(1e-8);
  return {F::normalize(qkv[0], unit) * (options_.cosine_scale * std::sqrt(static_cast<double>(d))),
          F::normalize(qkv[1], unit), qkv[2]};
}

namespace {

// Score elements materialised at once. Instances are attended in groups so that
// the [n, n] score matrices of a whole batch never exist at once, and long
// instances in blocks of query rows that stay in cache: memory stays bounded at
// n = 1600 and beyond, while short instances keep one batched product.
constexpr int64_t kGroupBudget = int64_t{1} << 25;  // scores of a group of instances
constexpr int64_t kRowBudget = int64_t{1} << 22;    // scores of one block of rows

// Softmax rows [..., M, r, n] of q.k less `offsets` (undefined: none); recorded by the
// setting's probe, if any.
torch::Tensor scores(const torch::Tensor& q, const torch::Tensor& k_t, const AttentionSetting& s,
                     const torch::Tensor& offsets) {
  auto products = torch::matmul(q * s.scale, k_t);
  auto rows = torch::softmax(offsets.defined() ? products - offsets : products, -1);
  if (s.probe) {
    const int64_t M = rows.size(-3);
    s.probe->add(rows.dim() == 3 ? rows : rows.transpose(0, 1).reshape({M, -1, rows.size(-1)}));
  }
  return rows;
}

// The bias of score rows [b, M, r, n] for the rows `from` [b, r, 2] against the
// nodes `to` [b, n, 2]; undefined without betas.
torch::Tensor bias_offsets(const torch::Tensor& beta, const torch::Tensor& from,
                           const torch::Tensor& to) {
  if (!beta.defined()) return {};
  return ScoreBias{beta, distances(from, to)}.offsets();
}

}  // namespace

torch::Tensor MultiHeadAttentionImpl::attention(const torch::Tensor& h,
                                                const AttentionSetting& setting,
                                                const NodeGeometry& geometry) {
  auto [q, k, v] = project(h);
  const auto beta = betas(setting, geometry);
  return scores(q, k.transpose(-1, -2), setting,
                bias_offsets(beta, geometry.positions, geometry.positions));
}

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& h,
                                              const AttentionSetting& setting,
                                              const NodeGeometry& geometry) {
  const int64_t B = h.size(0), n = h.size(1), E = options_.embed_dim, M = options_.heads;
  auto [q, k, v] = project(h);
  const auto beta = betas(setting, geometry);
  const auto& positions = geometry.positions;
  if (setting.window > 0 && setting.window < n) {
    const auto& neighbours = geometry.neighbours;
    if (!neighbours.defined() || neighbours.size(2) < setting.window) {
      throw std::invalid_argument("windowed attention needs each node's nearest nodes");
    }
    const auto near = neighbours.slice(2, 0, setting.window);
    const auto bias = beta.defined() ? ScoreBias{beta, distances_to(positions, near)} : ScoreBias{};
    return windowed_attention(q, k, v, near, setting.scale, setting.probe, bias)
        .transpose(1, 2)
        .reshape({B, n, E})
        .matmul(W_out.reshape({E, E}));
  }
  const auto k_t = k.transpose(-1, -2);
  const int64_t per_instance = M * n * n;
  std::vector<torch::Tensor> parts;  // [b, M, n, d] each
  if (fused_attention_applies(q, k) && !setting.probe) {
    // The kernels bound the scores they hold; with a bias, instances go in groups whose
    // distances stay bounded too.
    const int64_t group = beta.defined() ? std::max<int64_t>(1, kRowBudget / (n * n)) : B;
    for (int64_t b = 0; b < B; b += group) {
      const auto e = std::min(B, b + group);
      const auto at = positions.defined() ? positions.slice(0, b, e) : positions;
      const auto bias = beta.defined() ? ScoreBias{beta, distances(at, at)} : ScoreBias{};
      parts.push_back(fused_attention(q.slice(0, b, e), k.slice(0, b, e), v.slice(0, b, e),
                                      setting.scale, bias));
    }
  } else if (per_instance > kRowBudget) {
    const int64_t rows = std::max<int64_t>(1, kRowBudget / (M * n));
    for (int64_t b = 0; b < B; ++b) {
      std::vector<torch::Tensor> blocks;
      for (int64_t r = 0; r < n; r += rows) {
        const auto q_block = q[b].slice(1, r, std::min(n, r + rows));
        // Nodes without positions (packing) have no bias either.
        const auto offsets =
            beta.defined()
                ? bias_offsets(beta,
                               positions.slice(0, b, b + 1).slice(1, r, std::min(n, r + rows)),
                               positions.slice(0, b, b + 1))
                : torch::Tensor();
        blocks.push_back(torch::matmul(
            scores(q_block, k_t[b], setting, offsets.defined() ? offsets[0] : offsets), v[b]));
      }
      parts.push_back(torch::cat(blocks, 1).unsqueeze(0));
    }
  } else {
    const int64_t group = std::max<int64_t>(1, kGroupBudget / per_instance);
    for (int64_t b = 0; b < B; b += group) {
      const auto e = std::min(B, b + group);
      const auto group_positions = beta.defined() ? positions.slice(0, b, e) : positions;
      parts.push_back(torch::matmul(scores(q.slice(0, b, e), k_t.slice(0, b, e), setting,
                                           bias_offsets(beta, group_positions, group_positions)),
                                    v.slice(0, b, e)));
    }
  }
  const auto heads = parts.size() == 1 ? parts[0] : torch::cat(parts, 0);  // [B, M, n, d]
  return heads.transpose(1, 2).reshape({B, n, E}).matmul(W_out.reshape({E, E}));
}

}  // namespace eie::nn
