#pragma once

#include <torch/torch.h>

namespace eie {

struct ScaleNetworkOptions {
  int64_t head_dim = 16;  // d: lambda(N) = 1/sqrt(d)
  int64_t train_n = 100;  // N, where the integral starts
  int64_t max_n = 1600;   // N_max, the end of the fitted range (inputs are scaled by it)
  int64_t width = 10;     // d', hidden width
  int64_t blocks = 3;     // N_r residual blocks
};

// The EIE paper's lambda-network: lambda(n) = 1/sqrt(d) + integral_N^n f dx with
// f > 0 a small network (ReQUr layers, ReQU output + 1e-4), the integral by
// 5-point Gauss-Legendre quadrature. The network works in u = ln(n/N) / ln(N_max/N)
// (its input, and the integration variable: f(x) = g(u(x)) u'(x)), where the rate
// g is smooth and O(1); lambda is increasing in n by construction.
class ScaleNetworkImpl : public torch::nn::Module {
 public:
  explicit ScaleNetworkImpl(const ScaleNetworkOptions& options);
  // g = d lambda / du at u [k] (float64).
  torch::Tensor rate(const torch::Tensor& u);
  // lambda at sizes n [k] (float64).
  torch::Tensor forward(const torch::Tensor& n);

  [[nodiscard]] const ScaleNetworkOptions& options() const { return options_; }

 private:
  ScaleNetworkOptions options_;
  torch::nn::Linear input_{nullptr};
  std::vector<std::pair<torch::nn::Linear, torch::nn::Linear>> blocks_;
  torch::nn::Linear output_{nullptr};
};
TORCH_MODULE(ScaleNetwork);

// ReQUr(x) = ReLU(x)^2 - ReLU(x - 0.5)^2; ReQU(x) = ReLU(x)^2.
[[nodiscard]] torch::Tensor requr(const torch::Tensor& x);
[[nodiscard]] torch::Tensor requ(const torch::Tensor& x);

}  // namespace eie
