#include "src/nn/device_kernels.h"

#ifdef EIE_CUDA_KERNELS
#include <initializer_list>

#include "src/nn/cuda/decode_kernels.h"
#include "src/util/cuda_kernels.h"
#endif

namespace eie::nn {

#ifndef EIE_CUDA_KERNELS

torch::Tensor glimpse_on_device(const GlimpseMemory&, const torch::Tensor&, const torch::Tensor&,
                                double, const ScoreBias&) {
  return {};
}

torch::Tensor pointer_log_probs_on_device(const torch::Tensor&, const torch::Tensor&, double,
                                          const torch::Tensor&, const torch::Tensor&,
                                          const torch::Tensor&) {
  return {};
}

torch::Tensor distances_from_on_device(const torch::Tensor&, const torch::Tensor&) { return {}; }

#else

namespace {

// Whether the kernels take `values` (undefined ones aside; the first defined): on one
// GPU, of one type (float32 or float64), with no gradient to record.
bool kernels_take(std::initializer_list<torch::Tensor> values) {
  const auto& first = *values.begin();
  if (!cuda_kernels_enabled() || !first.is_cuda() ||
      (first.scalar_type() != torch::kFloat && first.scalar_type() != torch::kDouble)) {
    return false;
  }
  for (const auto& t : values) {
    if (!t.defined()) continue;
    if (t.device() != first.device() || t.scalar_type() != first.scalar_type() ||
        (torch::GradMode::is_enabled() && t.requires_grad())) {
      return false;
    }
  }
  return true;
}

// Whether `masked` is a mask [B, n] on the device of `like`.
bool mask_fits(const torch::Tensor& masked, const torch::Tensor& like, int64_t B, int64_t n) {
  return masked.scalar_type() == torch::kBool && masked.device() == like.device() &&
         masked.sizes() == torch::IntArrayRef{B, n};
}

const void* data_or_null(const torch::Tensor& t) { return t.defined() ? t.data_ptr() : nullptr; }

}  // namespace

torch::Tensor glimpse_on_device(const GlimpseMemory& memory, const torch::Tensor& query,
                                const torch::Tensor& masked, double scale, const ScoreBias& bias) {
  const int64_t B = memory.keys.size(0), M = memory.keys.size(1), d = memory.keys.size(2),
                n = memory.keys.size(3), R = query.size(0);
  const auto beta = bias.applies() ? bias.beta : torch::Tensor();
  const auto distance = bias.applies() ? bias.distance : torch::Tensor();
  if (!cuda::glimpse_head_dim_fits(d) ||
      !kernels_take({query, memory.keys, memory.values, beta, distance}) || R % B != 0 ||
      !mask_fits(masked, query, R, n) || query.sizes() != torch::IntArrayRef{R, M * d} ||
      (beta.defined() && (beta.numel() != M || distance.sizes() != torch::IntArrayRef{R, n}))) {
    return {};
  }
  const auto keys = memory.keys.contiguous(), values = memory.values.contiguous();
  const auto q = query.contiguous(), skip = masked.contiguous();
  const auto b = beta.defined() ? beta.contiguous() : beta;
  const auto dist = distance.defined() ? distance.contiguous() : distance;
  auto out = torch::empty({R, M * d}, q.options());
  const cuda::GlimpseArgs args{keys.data_ptr(),
                               values.data_ptr(),
                               q.data_ptr(),
                               skip.data_ptr<bool>(),
                               data_or_null(b),
                               data_or_null(dist),
                               out.data_ptr(),
                               B,
                               R / B,
                               M,
                               d,
                               n,
                               scale};
  launch_cuda_kernel(q, "glimpse", [&](void* stream) {
    return q.scalar_type() == torch::kFloat ? cuda::glimpse_float(args, stream)
                                            : cuda::glimpse_double(args, stream);
  });
  return out;
}

torch::Tensor pointer_log_probs_on_device(const torch::Tensor& keys, const torch::Tensor& query,
                                          double clip, const torch::Tensor& beta,
                                          const torch::Tensor& distance,
                                          const torch::Tensor& masked) {
  const int64_t B = keys.size(0), E = keys.size(1), n = keys.size(2), R = query.size(0);
  const bool biased = beta.defined() && distance.defined();
  const auto used_beta = biased ? beta : torch::Tensor();
  const auto used_distance = biased ? distance : torch::Tensor();
  if (!kernels_take({query, keys, used_beta, used_distance}) || R % B != 0 ||
      !mask_fits(masked, query, R, n) || query.sizes() != torch::IntArrayRef{R, E} ||
      (biased && (beta.numel() != 1 || distance.sizes() != torch::IntArrayRef{R, n}))) {
    return {};
  }
  const auto k = keys.contiguous(), q = query.contiguous(), skip = masked.contiguous();
  const auto b = biased ? beta.contiguous() : used_beta;
  const auto dist = biased ? distance.contiguous() : used_distance;
  auto out = torch::empty({R, n}, q.options());
  const cuda::PointerArgs args{k.data_ptr(),
                               q.data_ptr(),
                               skip.data_ptr<bool>(),
                               data_or_null(b),
                               data_or_null(dist),
                               out.data_ptr(),
                               B,
                               R / B,
                               E,
                               n,
                               clip};
  launch_cuda_kernel(q, "pointer", [&](void* stream) {
    return q.scalar_type() == torch::kFloat ? cuda::pointer_float(args, stream)
                                            : cuda::pointer_double(args, stream);
  });
  return out;
}

torch::Tensor distances_from_on_device(const torch::Tensor& positions,
                                       const torch::Tensor& current) {
  if (!kernels_take({positions}) || current.device() != positions.device() ||
      current.scalar_type() != torch::kLong) {
    return {};
  }
  const int64_t R = positions.size(0), n = positions.size(1);
  const auto rows = current.contiguous();
  auto out = torch::empty({R, n}, positions.options());
  const cuda::DistancesArgs args{positions.data_ptr(),
                                 {positions.stride(0), positions.stride(1), positions.stride(2)},
                                 rows.data_ptr<int64_t>(),
                                 out.data_ptr(),
                                 R,
                                 n};
  launch_cuda_kernel(positions, "distances", [&](void* stream) {
    return positions.scalar_type() == torch::kFloat ? cuda::distances_from_float(args, stream)
                                                    : cuda::distances_from_double(args, stream);
  });
  return out;
}

#endif

}  // namespace eie::nn
