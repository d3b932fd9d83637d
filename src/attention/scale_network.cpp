#include "src/attention/scale_network.h"

#include <cmath>

namespace eie {

torch::Tensor requ(const torch::Tensor& x) { return torch::relu(x).square(); }
torch::Tensor requr(const torch::Tensor& x) { return requ(x) - requ(x - 0.5); }

ScaleNetworkImpl::ScaleNetworkImpl(const ScaleNetworkOptions& o) : options_(o) {
  input_ = register_module("input", torch::nn::Linear(1, o.width));
  auto list = register_module("blocks", torch::nn::ModuleList());
  for (int64_t b = 0; b < o.blocks; ++b) {
    blocks_.emplace_back(torch::nn::Linear(o.width, o.width), torch::nn::Linear(o.width, o.width));
    auto block = torch::nn::ModuleList();
    block->push_back(blocks_.back().first);
    block->push_back(blocks_.back().second);
    list->push_back(block);
  }
  output_ = register_module("output", torch::nn::Linear(o.width, 1));
  {
    // Start with a live ReQU (a negative pre-activation would give f = 1e-4 and
    // no gradient) and a rate of the right order: lambda rises by O(1) over [N, N_max].
    torch::NoGradGuard no_grad;
    output_->bias.fill_(0.7);  // rate ~0.5: lambda(N_max) - lambda(N) is O(0.5)
  }
  to(torch::kDouble);
}

torch::Tensor ScaleNetworkImpl::rate(const torch::Tensor& u) {
  auto y = requr(input_(u.unsqueeze(-1)));
  for (auto& [first, second] : blocks_) y = requr(second(requr(first(y)))) + y;
  return requ(output_(y)).squeeze(-1) + 1e-4;
}

torch::Tensor ScaleNetworkImpl::forward(const torch::Tensor& n) {
  // 5-point Gauss-Legendre nodes and weights on [-1, 1].
  static const double nodes[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                  0.9061798459386640};
  static const double weights[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                    0.4786286704993665, 0.2369268850561891};
  // The integral runs in u = ln(n / N) / ln(N_max / N): the exact lambda grows
  // roughly like ln n, so the rate d lambda / du is smooth and O(1).
  const double span = std::log(static_cast<double>(options_.max_n) / options_.train_n);
  const auto half =
      torch::log(n.to(torch::kDouble) / static_cast<double>(options_.train_n)) / span / 2;
  auto integral = torch::zeros_like(half);
  for (int i = 0; i < 5; ++i) integral = integral + weights[i] * rate(half * (nodes[i] + 1));
  return 1.0 / std::sqrt(static_cast<double>(options_.head_dim)) + half * integral;
}

}  // namespace eie
