#include "problems/tsp/environment.h"

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

std::unique_ptr<RoutingEnvironment> TspEnvironment::view(const torch::Tensor& nodes,
                                                         torch::Tensor features) const {
  if (steps_ == 0) throw std::logic_error("tsp: no local view before the first city");
  auto v = std::make_unique<TspEnvironment>(
      coords_.gather(1, nodes.unsqueeze(2).expand({-1, -1, 2})), std::move(features));
  v->visited_ = visited_.gather(1, nodes);
  v->first_ = torch::zeros_like(first_);  // context() lists [first, last]
  v->last_ = torch::ones_like(last_);
  v->steps_ = 2;  // past the placeholder; not done while candidates remain
  return v;
}

}  // namespace eie::tsp
