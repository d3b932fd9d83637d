#include "src/nn/distance_bias.h"

namespace eie::nn {

torch::Tensor head_betas(const DistanceBias& bias, const torch::Tensor& trained, int64_t heads,
                         const torch::TensorOptions& options) {
  if (bias.of_trained) {
    if (!trained.defined() || bias.beta == 0) return {};
    return trained * bias.beta;
  }
  if (bias.beta == 0) return {};
  return torch::full({heads}, bias.beta, options);
}

torch::Tensor distances(const torch::Tensor& from, const torch::Tensor& to) {
  // Not cdist: its matrix-product shortcut loses digits that equivariance tests see.
  return (from.unsqueeze(2) - to.unsqueeze(1)).pow(2).sum(-1).sqrt();
}

torch::Tensor distances_from(const torch::Tensor& positions, const torch::Tensor& current) {
  const int64_t B = positions.size(0);
  const auto here = positions.gather(1, current.view({B, 1, 1}).expand({B, 1, 2}));
  return distances(here, positions).squeeze(1);
}

torch::Tensor ScoreBias::offsets() const {
  const int64_t M = beta.size(0);
  std::vector<int64_t> shape(static_cast<size_t>(distance.dim()) + 1, 1);
  shape[1] = M;
  return beta.view(shape) * distance.unsqueeze(1);
}

}  // namespace eie::nn
