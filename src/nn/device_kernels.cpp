#include "src/nn/device_kernels.h"

#ifdef EIE_CUDA_KERNELS
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "src/nn/cuda/decode_kernels.h"
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

#else

namespace {

// Whether the kernels take `values` (undefined ones aside) and the mask `masked`: on one
// GPU, of one type (float32 or float64), with no gradient to record; unless
// EIE_CUDA_KERNELS=0 (LibTorch's ops, to compare).
bool kernels_take(std::initializer_list<torch::Tensor> values, const torch::Tensor& masked) {
  static const bool off = [] {
    const char* value = std::getenv("EIE_CUDA_KERNELS");
    return value && std::string(value) == "0";
  }();
  const auto& first = *values.begin();
  if (off || !first.is_cuda() || masked.device() != first.device() ||
      masked.scalar_type() != torch::kBool ||
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

void throw_if_failed(int error, const char* kernel) {
  if (error != 0) {
    throw std::runtime_error(std::string(kernel) + " kernel: " + cuda::error_string(error));
  }
}

void* current_stream(const torch::Tensor& t) {
  return c10::cuda::getCurrentCUDAStream(t.device().index()).stream();
}

}  // namespace

torch::Tensor glimpse_on_device(const GlimpseMemory& memory, const torch::Tensor& query,
                                const torch::Tensor& masked, double scale, const ScoreBias& bias) {
  const int64_t B = memory.keys.size(0), M = memory.keys.size(1), d = memory.keys.size(2),
                n = memory.keys.size(3);
  const auto beta = bias.applies() ? bias.beta : torch::Tensor();
  const auto distance = bias.applies() ? bias.distance : torch::Tensor();
  if (!cuda::glimpse_head_dim_fits(d) ||
      !kernels_take({query, memory.keys, memory.values, beta, distance}, masked) ||
      masked.sizes() != torch::IntArrayRef{B, n} || query.numel() != B * M * d ||
      (beta.defined() && (beta.numel() != M || distance.sizes() != torch::IntArrayRef{B, n}))) {
    return {};
  }
  const c10::cuda::CUDAGuard on(query.device());
  const auto keys = memory.keys.contiguous(), values = memory.values.contiguous();
  const auto q = query.contiguous(), skip = masked.contiguous();
  const auto b = beta.defined() ? beta.contiguous() : beta;
  const auto dist = distance.defined() ? distance.contiguous() : distance;
  auto out = torch::empty({B, M * d}, q.options());
  const cuda::GlimpseArgs args{keys.data_ptr(),
                               values.data_ptr(),
                               q.data_ptr(),
                               skip.data_ptr<bool>(),
                               b.defined() ? b.data_ptr() : nullptr,
                               dist.defined() ? dist.data_ptr() : nullptr,
                               out.data_ptr(),
                               B,
                               M,
                               d,
                               n,
                               scale};
  const auto stream = current_stream(q);
  throw_if_failed(q.scalar_type() == torch::kFloat ? cuda::glimpse_float(args, stream)
                                                   : cuda::glimpse_double(args, stream),
                  "glimpse");
  return out;
}

torch::Tensor pointer_log_probs_on_device(const torch::Tensor& keys, const torch::Tensor& query,
                                          double clip, const torch::Tensor& beta,
                                          const torch::Tensor& distance,
                                          const torch::Tensor& masked) {
  const int64_t B = keys.size(0), E = keys.size(1), n = keys.size(2);
  const bool biased = beta.defined() && distance.defined();
  if (!kernels_take(
          {query, keys, biased ? beta : torch::Tensor(), biased ? distance : torch::Tensor()},
          masked) ||
      masked.sizes() != torch::IntArrayRef{B, n} || query.sizes() != torch::IntArrayRef{B, E} ||
      (biased && (beta.numel() != 1 || distance.sizes() != torch::IntArrayRef{B, n}))) {
    return {};
  }
  const c10::cuda::CUDAGuard on(query.device());
  const auto k = keys.contiguous(), q = query.contiguous(), skip = masked.contiguous();
  const auto b = biased ? beta.contiguous() : torch::Tensor();
  const auto dist = biased ? distance.contiguous() : torch::Tensor();
  auto out = torch::empty({B, n}, q.options());
  const cuda::PointerArgs args{k.data_ptr(),
                               q.data_ptr(),
                               skip.data_ptr<bool>(),
                               biased ? b.data_ptr() : nullptr,
                               biased ? dist.data_ptr() : nullptr,
                               out.data_ptr(),
                               B,
                               E,
                               n,
                               clip};
  const auto stream = current_stream(q);
  throw_if_failed(q.scalar_type() == torch::kFloat ? cuda::pointer_float(args, stream)
                                                   : cuda::pointer_double(args, stream),
                  "pointer");
  return out;
}

#endif

}  // namespace eie::nn
