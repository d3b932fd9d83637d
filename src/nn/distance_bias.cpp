#include "src/nn/distance_bias.h"

namespace eie::nn {

torch::Tensor head_betas(const DistanceBias& bias, const torch::Tensor& trained, int64_t heads,
                         const torch::TensorOptions& options) {
  torch::Tensor betas;
  if (trained.defined() && bias.factor != 0) betas = trained * bias.factor;
  if (bias.added == 0) return betas;
  return betas.defined() ? betas + bias.added : torch::full({heads}, bias.added, options);
}

bool is_trained_beta(const std::string& parameter_name) {
  const auto last = parameter_name.substr(parameter_name.rfind('.') + 1);
  return last == kEncoderBetas || last == kGlimpseBetas || last == kPointerBetas;
}

namespace {
// Euclidean length of the last axis (of size 2). Not cdist: its matrix-product
// shortcut loses digits that equivariance tests see.
torch::Tensor lengths(const torch::Tensor& differences) {
  return differences.pow(2).sum(-1).sqrt();
}
}  // namespace

torch::Tensor distances(const torch::Tensor& from, const torch::Tensor& to) {
  return lengths(from.unsqueeze(2) - to.unsqueeze(1));
}

torch::Tensor distances_to(const torch::Tensor& positions, const torch::Tensor& neighbours) {
  const int64_t B = positions.size(0), n = neighbours.size(1), K = neighbours.size(2);
  const auto around = positions.gather(1, neighbours.reshape({B, n * K, 1}).expand({B, n * K, 2}));
  return lengths(positions.unsqueeze(2) - around.view({B, n, K, 2}));
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
