#include "src/nn/distance_bias.h"

#include <array>
#include <cmath>

#include "src/nn/device_kernels.h"
#include "src/nn/head_kernels.h"  // kParallelWork
#include "src/nn/kernel_operands.h"

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

namespace {
// distances_from() on the CPU: out [R, n] from positions at `p` (strides in elements:
// rows, nodes, coordinates) and current nodes [R]. The arithmetic of lengths(), so the
// same numbers (no -march in the build, so no fused multiply-add either): a decode step's
// five tensor ops over [R, n, 2] took 13 ms at 6,400 rows of 100 nodes (results/speed.md).
template <typename T>
void distances_from_rows(const T* p, const std::array<int64_t, 3>& stride, const int64_t* current,
                         int64_t R, int64_t n, T* out) {
#pragma omp parallel for schedule(static) if (R * n >= kParallelWork)
  for (int64_t r = 0; r < R; ++r) {
    const T* row = p + r * stride[0];
    const T* here = row + current[r] * stride[1];
    for (int64_t j = 0; j < n; ++j) {
      const T dx = here[0] - row[j * stride[1]];
      const T dy = here[stride[2]] - row[j * stride[1] + stride[2]];
      out[r * n + j] = std::sqrt(dx * dx + dy * dy);
    }
  }
}
}  // namespace

torch::Tensor distances_from(const torch::Tensor& positions, const torch::Tensor& current) {
  TORCH_CHECK(positions.dim() == 3 && positions.size(2) == 2 && current.dim() == 1 &&
                  current.size(0) == positions.size(0) && current.scalar_type() == torch::kLong,
              "distances_from: positions [R, n, 2] and int64 current nodes [R]");
  const int64_t R = positions.size(0), n = positions.size(1);
  const bool kernel =
      kernel_operand(positions) && current.device().is_cpu() && !positions.requires_grad();
  if (!kernel) {
    if (auto on_device = distances_from_on_device(positions, current); on_device.defined()) {
      return on_device;
    }
    const auto here = positions.gather(1, current.view({R, 1, 1}).expand({R, 1, 2}));
    return distances(here, positions).squeeze(1);
  }
  const auto rows = current.contiguous();
  TORCH_CHECK(indices_within(rows, n), "distances_from: a current node out of range");
  auto out = torch::empty({R, n}, positions.options());
  AT_DISPATCH_FLOATING_TYPES(positions.scalar_type(), "distances from", [&] {
    distances_from_rows(positions.data_ptr<scalar_t>(),
                        {positions.stride(0), positions.stride(1), positions.stride(2)},
                        rows.data_ptr<int64_t>(), R, n, out.data_ptr<scalar_t>());
  });
  return out;
}

torch::Tensor ScoreBias::offsets() const {
  const int64_t M = beta.size(0);
  std::vector<int64_t> shape(static_cast<size_t>(distance.dim()) + 1, 1);
  shape[1] = M;
  return beta.view(shape) * distance.unsqueeze(1);
}

}  // namespace eie::nn
