#include "problems/tsp/tensors.h"

namespace eie::tsp {

std::vector<std::vector<Point>> cities_of(const Instances& instances) {
  const auto coords = instances.at("coords").to(torch::kCPU, torch::kDouble).contiguous();
  const int64_t B = coords.size(0), n = coords.size(1);
  std::vector<std::vector<Point>> cities(B, std::vector<Point>(n));
  const auto* c = coords.data_ptr<double>();
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i < n; ++i) cities[b][i] = {c[(b * n + i) * 2], c[(b * n + i) * 2 + 1]};
  }
  return cities;
}

torch::Tensor coords_tensor(const std::vector<std::vector<Point>>& cities) {
  const auto B = static_cast<int64_t>(cities.size()), n = static_cast<int64_t>(cities[0].size());
  auto coords = torch::empty({B, n, 2}, torch::kFloat);
  auto* c = coords.data_ptr<float>();
  for (const auto& instance : cities) {
    for (const auto& p : instance) *c++ = static_cast<float>(p.x), *c++ = static_cast<float>(p.y);
  }
  return coords;
}

std::vector<Tour> tours_of(const torch::Tensor& actions) {
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<Tour> tours(a.size(0));
  for (int64_t b = 0; b < a.size(0); ++b) {
    const auto* row = a[b].data_ptr<int64_t>();
    tours[b].assign(row, row + a.size(1));
  }
  return tours;
}

torch::Tensor tensor_of(const std::vector<Tour>& tours) {
  auto out = torch::empty(
      {static_cast<int64_t>(tours.size()), static_cast<int64_t>(tours[0].size())}, torch::kLong);
  for (size_t b = 0; b < tours.size(); ++b) {
    std::copy(tours[b].begin(), tours[b].end(), out[b].data_ptr<int64_t>());
  }
  return out;
}

}  // namespace eie::tsp
