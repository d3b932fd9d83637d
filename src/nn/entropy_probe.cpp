#include "src/nn/entropy_probe.h"

#include <limits>

namespace eie::nn {

void EntropyProbe::add(const torch::Tensor& weights) {
  torch::NoGradGuard no_grad;
  // Each row's entropy in the weights' own type (a vectorised log, no double copy of the
  // rows: a tenth of a calibration's time went there), summed in float64. 0 log 0 = 0:
  // a zero weight times the log of the smallest normal number.
  const bool exact = weights.scalar_type() == torch::kDouble;
  const auto w = exact ? weights : weights.to(torch::kFloat);  // no copy for float32
  const double tiny =
      exact ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  const auto entropy = -(w * w.clamp_min(tiny).log()).sum(-1).to(torch::kDouble);  // [M, rows]
  if (!sum_.defined()) {
    sum_ = torch::zeros({entropy.size(0)}, entropy.options());
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
