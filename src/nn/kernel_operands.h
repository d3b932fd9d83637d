#pragma once

#include <torch/torch.h>

namespace eie::nn {

// Whether the hand-written CPU kernels (attention, row picks, distances) take `t`: float
// or double, on the CPU. Other types and devices go through LibTorch's ops.
[[nodiscard]] inline bool kernel_operand(const torch::Tensor& t) {
  return t.device().is_cpu() &&
         (t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kDouble);
}

}  // namespace eie::nn
