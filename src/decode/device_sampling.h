#pragma once

#include <torch/torch.h>

namespace eie {

// sample_rows()'s draws from probabilities [B, A] and uniforms [B] on a GPU in one of
// eie's kernels (src/decode/cuda/): the CPU's draws bit for bit. Undefined where the
// kernel does not apply (a CPU tensor, a type other than float32 or float64, or
// util/cuda_kernels.h says eie's kernels do not run): sample_rows_by_tensor_ops() then.
[[nodiscard]] torch::Tensor sample_rows_on_device(const torch::Tensor& probs,
                                                  const torch::Tensor& uniforms);

}  // namespace eie
