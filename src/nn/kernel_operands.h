#pragma once

#include <torch/torch.h>

#include <algorithm>

namespace eie::nn {

// Whether the hand-written CPU kernels (attention, row picks, distances) take `t`: float
// or double, on the CPU. Other types and devices go through LibTorch's ops.
[[nodiscard]] inline bool kernel_operand(const torch::Tensor& t) {
  return t.device().is_cpu() &&
         (t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kDouble);
}

// Whether every index of `index` (contiguous int64, on the CPU) lies in [0, n): read in
// place, without tensor ops (the decode loop counts the values it reads back as tensors).
[[nodiscard]] inline bool indices_within(const torch::Tensor& index, int64_t n) {
  const int64_t* i = index.data_ptr<int64_t>();
  return std::all_of(i, i + index.numel(), [n](int64_t v) { return v >= 0 && v < n; });
}

}  // namespace eie::nn
