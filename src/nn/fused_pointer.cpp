#include "src/nn/fused_pointer.h"

#include <cmath>

#include "src/nn/kernel_operands.h"
#include "src/nn/pointer_kernels.h"

namespace eie::nn {

namespace {

PointerSizes sizes_of(const torch::Tensor& query, const torch::Tensor& keys) {
  return {query.size(0), query.size(1), keys.size(2), query.size(2)};
}

class FusedPointerFunction : public torch::autograd::Function<FusedPointerFunction> {
 public:
  // beta and distance: empty tensors for no bias (custom functions take defined tensors).
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& query,
                               const torch::Tensor& keys, const torch::Tensor& beta,
                               const torch::Tensor& distance, const torch::Tensor& masked,
                               double clip) {
    const auto q = query.contiguous(), k = keys.contiguous();
    const auto s = sizes_of(q, k);
    const bool biased = beta.numel() > 0;
    const auto d = biased ? distance.to(q.scalar_type()).contiguous() : distance;
    const auto mask = masked.to(torch::kBool).contiguous();
    auto squashed = torch::empty({s.B, s.T, s.n}, q.options());
    auto logits = torch::empty_like(squashed);
    AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "pointer products", [&] {
      pointer_products(q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), s,
                       squashed.data_ptr<scalar_t>());
    });
    // LibTorch's own division and tanh, in place: their bits, vectorised.
    squashed.div_(std::sqrt(static_cast<double>(s.E))).tanh_();
    AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "pointer logits", [&] {
      pointer_logits(squashed.data_ptr<scalar_t>(), static_cast<scalar_t>(clip),
                     biased ? beta.to(q.scalar_type()).item<scalar_t>() : scalar_t{0},
                     biased ? d.data_ptr<scalar_t>() : nullptr, mask.data_ptr<bool>(),
                     squashed.numel(), logits.data_ptr<scalar_t>());
    });
    auto log_probs = at::_log_softmax(logits, -1, false);
    ctx->save_for_backward({q, k, d, squashed, log_probs});
    ctx->saved_data["clip"] = clip;
    ctx->saved_data["beta_sizes"] = beta.sizes().vec();
    return log_probs;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto &q = saved[0], &k = saved[1], &d = saved[2], &squashed = saved[3];
    const auto& log_probs = saved[4];
    const double clip = ctx->saved_data["clip"].toDouble();
    const bool biased = d.numel() > 0;  // distances saved only with a bias
    const auto s = sizes_of(q, k);
    auto grad = at::_log_softmax_backward_data(grads[0].contiguous(), log_probs, -1,
                                               log_probs.scalar_type());
    auto beta_parts = torch::zeros({s.B}, q.options());
    auto grad_q = torch::empty_like(q), grad_k = torch::empty_like(k);
    AT_DISPATCH_FLOATING_TYPES(q.scalar_type(), "pointer backward", [&] {
      pointer_score_grads(grad.data_ptr<scalar_t>(), squashed.data_ptr<scalar_t>(),
                          static_cast<scalar_t>(clip), biased ? d.data_ptr<scalar_t>() : nullptr,
                          s.B, s.T * s.n, beta_parts.data_ptr<scalar_t>());
      pointer_product_grads(q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(),
                            grad.data_ptr<scalar_t>(), s,
                            static_cast<scalar_t>(1 / std::sqrt(static_cast<double>(s.E))),
                            grad_q.data_ptr<scalar_t>(), grad_k.data_ptr<scalar_t>());
    });
    const auto grad_beta = biased
                               ? beta_parts.sum().view(ctx->saved_data["beta_sizes"].toIntVector())
                               : torch::Tensor();
    return {grad_q, grad_k, grad_beta, {}, {}, {}};
  }
};

}  // namespace

bool fused_pointer_applies(const torch::Tensor& query, const torch::Tensor& keys,
                           const torch::Tensor& beta) {
  const bool recorded =
      torch::GradMode::is_enabled() &&
      (query.requires_grad() || keys.requires_grad() || (beta.defined() && beta.requires_grad()));
  return recorded && kernel_operand(query) && keys.device().is_cpu() &&
         keys.scalar_type() == query.scalar_type();
}

torch::Tensor fused_pointer_log_probs(const torch::Tensor& keys, const torch::Tensor& query,
                                      double clip, const torch::Tensor& beta,
                                      const torch::Tensor& distance, const torch::Tensor& masked) {
  const int64_t B = query.size(0), T = query.size(1), E = query.size(2), n = keys.size(2);
  TORCH_CHECK(keys.sizes() == torch::IntArrayRef({B, E, n}),
              "fused pointer: keys [B, E, n] for queries [B, T, E]");
  TORCH_CHECK(masked.sizes() == torch::IntArrayRef({B, T, n}), "fused pointer: mask [B, T, n]");
  const bool biased = beta.defined() && distance.defined();
  TORCH_CHECK(!biased || (beta.numel() == 1 && distance.sizes() == masked.sizes()),
              "fused pointer: beta [1] and distances [B, T, n]");
  const auto none = torch::empty({0}, query.options());
  return FusedPointerFunction::apply(query, keys, biased ? beta : none, biased ? distance : none,
                                     masked, clip);
}

}  // namespace eie::nn
