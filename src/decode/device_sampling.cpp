#include "src/decode/device_sampling.h"

#ifdef EIE_CUDA_KERNELS
#include "src/decode/cuda/sample_kernel.h"
#include "src/util/cuda_kernels.h"
#endif

namespace eie {

#ifndef EIE_CUDA_KERNELS

torch::Tensor sample_rows_on_device(const torch::Tensor&, const torch::Tensor&) { return {}; }

#else

torch::Tensor sample_rows_on_device(const torch::Tensor& probs, const torch::Tensor& uniforms) {
  const auto type = probs.scalar_type();
  if (!cuda_kernels_enabled() || !probs.is_cuda() || uniforms.device() != probs.device() ||
      uniforms.scalar_type() != type || (type != torch::kFloat && type != torch::kDouble) ||
      uniforms.numel() != probs.size(0)) {
    return {};
  }
  const int64_t B = probs.size(0), A = probs.size(1);
  const auto p = probs.contiguous(), u = uniforms.contiguous();
  auto drawn = torch::empty({B}, p.options().dtype(torch::kLong));
  launch_cuda_kernel(p, "sampling", [&](void* stream) {
    return type == torch::kFloat
               ? cuda::sample_rows_float(p.data_ptr<float>(), u.data_ptr<float>(), B, A,
                                         drawn.data_ptr<int64_t>(), stream)
               : cuda::sample_rows_double(p.data_ptr<double>(), u.data_ptr<double>(), B, A,
                                          drawn.data_ptr<int64_t>(), stream);
  });
  return drawn;
}

#endif

}  // namespace eie
