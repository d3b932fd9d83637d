#include "tsp/environment.h"

namespace eie::tsp {

namespace {
torch::Tensor city(const torch::Tensor& coords, const torch::Tensor& index) {
  return coords.gather(1, index.view({-1, 1, 1}).expand({-1, 1, 2})).squeeze(1);
}
}  // namespace

TspEnvironment::TspEnvironment(torch::Tensor coords, torch::Tensor features)
    : coords_(std::move(coords)), features_(std::move(features)), n_(coords_.size(1)) {
  const auto B = coords_.size(0);
  const auto opts = torch::TensorOptions().device(coords_.device());
  visited_ = torch::zeros({B, n_}, opts.dtype(torch::kBool));
  first_ = torch::zeros({B}, opts.dtype(torch::kLong));
  last_ = first_.clone();
  length_ = torch::zeros({B}, opts.dtype(torch::kFloat));
}

torch::Tensor TspEnvironment::feasible() const { return visited_.logical_not(); }

void TspEnvironment::step(const torch::Tensor& action) {
  if (steps_ == 0) {
    first_ = action.clone();
  } else {
    length_ = length_ + (city(coords_, action) - city(coords_, last_)).norm(2, 1);
  }
  last_ = action.clone();
  visited_.scatter_(1, action.unsqueeze(1), true);
  ++steps_;
}

torch::Tensor TspEnvironment::cost() const {
  return length_ + (city(coords_, first_) - city(coords_, last_)).norm(2, 1);
}

RoutingContext TspEnvironment::context() const {
  return {torch::stack({first_, last_}, 1), torch::empty({coords_.size(0), 0}, coords_.options()),
          steps_ == 0};
}

}  // namespace eie::tsp
