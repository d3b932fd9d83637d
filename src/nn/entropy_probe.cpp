#include "src/nn/entropy_probe.h"

namespace eie::nn {

void EntropyProbe::add(const torch::Tensor& weights) {
  torch::NoGradGuard no_grad;
  const auto w = weights.to(torch::kDouble);
  const auto entropy = -torch::special_xlogy(w, w).sum(-1);  // [M, rows]; 0 log 0 = 0
  if (!sum_.defined()) {
    sum_ = torch::zeros({w.size(0)}, w.options());
    square_ = torch::zeros_like(sum_);
  }
  sum_ += entropy.sum(1);
  square_ += entropy.pow(2).sum(1);
  rows_ += entropy.size(1);
}

torch::Tensor EntropyProbe::mean() const {
  TORCH_CHECK(rows_ > 0, "no attention rows were measured");
  return sum_ / static_cast<double>(rows_);
}

torch::Tensor EntropyProbe::std() const {
  const auto m = mean();
  return (square_ / static_cast<double>(rows_) - m * m).clamp_min(0).sqrt();
}

}  // namespace eie::nn
