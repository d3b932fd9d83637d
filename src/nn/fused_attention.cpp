#include "src/nn/fused_attention.h"

#include <algorithm>

#include "src/nn/attention_kernels.h"
#include "src/nn/kernel_operands.h"

namespace eie::nn {

namespace {

// Scores held at once without gradients (16 MB of float): 400 heads' at n = 100, one
// head's at n = 2,048 (never less than one head's).
constexpr int64_t kScoreBudget = int64_t{1} << 22;

// `t` [B, M, n, d] itself when the kernels can read it (row-major matrices, or the
// transposed storage of the glimpse memory, groups packed one after the other), else a
// contiguous copy.
torch::Tensor readable(const torch::Tensor& t) {
  const int64_t n = t.size(2), d = t.size(3);
  const bool packed = t.stride(1) == n * d && t.stride(0) == t.size(1) * n * d;
  const bool rows = t.stride(3) == 1 && t.stride(2) == d;
  const bool columns = t.stride(2) == 1 && t.stride(3) == n;
  return packed && (rows || columns) ? t : t.contiguous();
}

template <typename T>
GroupMatrices<T> matrices(const torch::Tensor& t) {
  const int64_t n = t.size(2), d = t.size(3);
  const bool by_column = t.stride(3) != 1;
  return {t.data_ptr<T>(), by_column ? n : d, by_column, n * d};
}

// Queries [B, M, r, d] as the kernels read them: rows of contiguous elements at least d
// apart (a projection's output viewed as heads, as it is), else a packed copy.
torch::Tensor readable_rows(const torch::Tensor& q) {
  const int64_t r = q.size(2), d = q.size(3);
  const bool rows = (d == 1 || q.stride(3) == 1) && (r == 1 || q.stride(2) >= d);
  return rows ? q : q.contiguous();
}

// Where each group's rows lie in readable_rows()'s or empty_side_by_side()'s tensor.
RowLayout layout_of(const torch::Tensor& rows) {
  const int64_t r = rows.size(2), d = rows.size(3);
  return {rows.stride(0), rows.stride(1), r == 1 ? d : rows.stride(2)};
}

// A fresh [B, M, r, d] tensor with the heads side by side in memory ([B, r, M, d]): the
// output and the queries' gradient, so that concatenating the heads after (and the
// queries' view as heads before) copies nothing.
torch::Tensor empty_side_by_side(const torch::Tensor& q) {
  return torch::empty({q.size(0), q.size(2), q.size(1), q.size(3)}, q.options()).transpose(1, 2);
}

// `t` [B, M, r, d] in empty_side_by_side()'s layout: itself when it is, else a copy.
torch::Tensor side_by_side(const torch::Tensor& t) {
  return t.transpose(1, 2).contiguous().transpose(1, 2);
}

// A fresh tensor of readable `t`'s shape and layout (row-major, or node axis last).
torch::Tensor empty_in_layout_of(const torch::Tensor& t) {
  if (t.stride(3) == 1) return torch::empty(t.sizes(), t.options());
  return torch::empty({t.size(0), t.size(1), t.size(3), t.size(2)}, t.options()).transpose(2, 3);
}

// The operands as the kernels read them (beta, distance and masked: empty tensors
// for none on the way in).
struct Operands {
  torch::Tensor q, keys, values;  // [B, M, r, d] (readable_rows), [B, M, n, d] (readable)
  torch::Tensor beta, distance;   // [M], [B, r, n]; undefined without a bias
  torch::Tensor masked;           // [B, r, n] bool; undefined without a mask
  double scale = 1;
  AttentionSizes sizes;
};

Operands prepare(const torch::Tensor& q, const torch::Tensor& keys, const torch::Tensor& values,
                 double scale, const torch::Tensor& beta, const torch::Tensor& distance,
                 const torch::Tensor& masked) {
  const int64_t B = q.size(0), M = q.size(1), r = q.size(2), n = keys.size(2), d = q.size(3);
  TORCH_CHECK(keys.sizes() == values.sizes() && keys.sizes() == torch::IntArrayRef({B, M, n, d}),
              "fused attention: keys and values must be [B, M, n, d] for queries [B, M, r, d]");
  TORCH_CHECK(keys.scalar_type() == q.scalar_type() && values.scalar_type() == q.scalar_type(),
              "fused attention: queries, keys and values of one type");
  TORCH_CHECK(beta.numel() == 0 || (beta.sizes() == torch::IntArrayRef({M}) &&
                                    distance.sizes() == torch::IntArrayRef({B, r, n})),
              "fused attention: betas [M] and distances [B, r, n]");
  TORCH_CHECK(masked.numel() == 0 || masked.sizes() == torch::IntArrayRef({B, r, n}),
              "fused attention: mask [B, r, n]");
  Operands o;
  o.q = readable_rows(q);
  o.keys = readable(keys);
  o.values = readable(values);
  if (beta.numel() > 0) {
    o.beta = beta.to(q.scalar_type()).contiguous();
    o.distance = distance.to(q.scalar_type()).contiguous();
  }
  if (masked.numel() > 0) o.masked = masked.to(torch::kBool).contiguous();
  o.scale = scale;
  o.sizes = {B, M, r, n, d};
  return o;
}

template <typename T>
ScoreTerms<T> terms(const Operands& o) {
  ScoreTerms<T> t;
  t.scale = static_cast<T>(o.scale);
  if (o.beta.defined()) {
    t.beta = o.beta.data_ptr<T>();
    t.distance = o.distance.data_ptr<T>();
  }
  if (o.masked.defined()) t.masked = o.masked.data_ptr<bool>();
  return t;
}

// out [B, M, r, d]. With `kept`, every group's softmax rows [G, r, n] are computed at
// once and kept there (for the backward); without, a chunk of groups at a time.
torch::Tensor forward_pass(const Operands& o, torch::Tensor* kept) {
  const auto& s = o.sizes;
  const int64_t G = s.groups(), area = s.r * s.n;
  auto out = empty_side_by_side(o.q);
  if (G == 0 || area == 0) {  // no queries, or no keys to attend to
    if (kept) *kept = torch::empty({G, s.r, s.n}, o.q.options());
    return out.zero_();
  }
  const int64_t chunk = kept ? G : std::clamp<int64_t>(kScoreBudget / area, 1, G);
  auto rows = torch::empty({chunk, s.r, s.n}, o.q.options());
  AT_DISPATCH_FLOATING_TYPES(o.q.scalar_type(), "fused attention", [&] {
    const auto keys = matrices<scalar_t>(o.keys), values = matrices<scalar_t>(o.values);
    for (int64_t first = 0; first < G; first += chunk) {
      const int64_t last = std::min(G, first + chunk);
      auto block = rows.slice(0, 0, last - first);
      attention_scores(o.q.data_ptr<scalar_t>(), layout_of(o.q), keys, terms<scalar_t>(o), s, first,
                       last, block.data_ptr<scalar_t>());
      at::_softmax_out(block, block, -1, false);  // row by row: in place is safe
      attention_mix(block.data_ptr<scalar_t>(), values, s, first, last, out.data_ptr<scalar_t>(),
                    layout_of(out));
    }
  });
  if (kept) *kept = rows;
  return out;
}

class FusedAttentionFunction : public torch::autograd::Function<FusedAttentionFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& q,
                               const torch::Tensor& keys, const torch::Tensor& values,
                               const torch::Tensor& beta, const torch::Tensor& distance,
                               const torch::Tensor& masked, double scale) {
    const auto o = prepare(q, keys, values, scale, beta, distance, masked);
    torch::Tensor rows;
    auto out = forward_pass(o, &rows);
    // Not the mask: masked scores have softmax weight 0, which `rows` holds.
    ctx->save_for_backward({o.q, o.keys, o.values, o.beta, o.distance, rows});
    ctx->saved_data["scale"] = scale;
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    Operands o;
    o.q = saved[0], o.keys = saved[1], o.values = saved[2];
    o.beta = saved[3], o.distance = saved[4];
    o.scale = ctx->saved_data["scale"].toDouble();
    o.sizes = {o.q.size(0), o.q.size(1), o.q.size(2), o.keys.size(2), o.q.size(3)};
    const auto& rows = saved[5];
    const auto& s = o.sizes;
    const auto grad_out = side_by_side(grads[0]);
    auto grad_q = empty_side_by_side(o.q);
    auto grad_keys = empty_in_layout_of(o.keys), grad_values = empty_in_layout_of(o.values);
    torch::Tensor beta_grads;
    if (o.beta.defined()) beta_grads = torch::zeros({s.B, s.M}, o.q.options());
    if (s.groups() == 0 || s.r * s.n == 0) {  // nothing attended: no gradient
      grad_q.zero_(), grad_keys.zero_(), grad_values.zero_();
    } else {
      AT_DISPATCH_FLOATING_TYPES(o.q.scalar_type(), "fused attention backward", [&] {
        attention_backward(o.q.data_ptr<scalar_t>(), layout_of(o.q), matrices<scalar_t>(o.keys),
                           matrices<scalar_t>(o.values), terms<scalar_t>(o), s,
                           rows.data_ptr<scalar_t>(), grad_out.data_ptr<scalar_t>(),
                           grad_q.data_ptr<scalar_t>(), layout_of(grad_q),
                           grad_keys.data_ptr<scalar_t>(), grad_values.data_ptr<scalar_t>(),
                           beta_grads.defined() ? beta_grads.data_ptr<scalar_t>() : nullptr);
      });
    }
    const auto grad_beta = beta_grads.defined() ? beta_grads.sum(0) : torch::Tensor();
    return {grad_q, grad_keys, grad_values, grad_beta, {}, {}, {}};
  }
};

}  // namespace

bool fused_attention_applies(const torch::Tensor& q, const torch::Tensor& keys) {
  return kernel_operand(q) && keys.device().is_cpu() && keys.scalar_type() == q.scalar_type();
}

torch::Tensor fused_attention(const torch::Tensor& q, const torch::Tensor& keys,
                              const torch::Tensor& values, double scale, const ScoreBias& bias,
                              const torch::Tensor& masked) {
  // LibTorch's custom functions take defined tensors only: an empty one stands for none.
  const auto none = torch::empty({0}, q.options());
  const auto beta = bias.applies() ? bias.beta : none;
  const auto distance = bias.applies() ? bias.distance : none;
  const auto mask = masked.defined() ? masked : none;
  const bool recorded =
      torch::GradMode::is_enabled() &&
      (q.requires_grad() || keys.requires_grad() || values.requires_grad() || beta.requires_grad());
  if (!recorded)
    return forward_pass(prepare(q, keys, values, scale, beta, distance, mask), nullptr);
  return FusedAttentionFunction::apply(q, keys, values, beta, distance, mask, scale);
}

}  // namespace eie::nn
