#include "problems/cvrp/environment.h"

#include <algorithm>
#include <cmath>

namespace eie::cvrp {

namespace {
torch::Tensor node(const torch::Tensor& locations, const torch::Tensor& index) {
  return locations.gather(1, index.view({-1, 1, 1}).expand({-1, 1, 2})).squeeze(1);
}
}  // namespace

CvrpEnvironment::CvrpEnvironment(torch::Tensor locations, torch::Tensor features, torch::Tensor q)
    : locations_(std::move(locations)), features_(std::move(features)), n_(q.size(1)) {
  const auto B = locations_.size(0);
  const auto opts = torch::TensorOptions().device(locations_.device());
  q_ = torch::cat({torch::zeros({B, 1}, q.options()), q}, 1);
  visited_ = torch::zeros({B, n_ + 1}, opts.dtype(torch::kBool));
  current_ = torch::zeros({B}, opts.dtype(torch::kLong));
  used_ = torch::zeros({B}, q.options());
  length_ = torch::zeros({B}, locations_.options());
  all_finished_ = torch::zeros({}, opts.dtype(torch::kBool));
  // Each route carries at most a capacity (up to float rounding, far below the margin).
  const double most_demand = n_ > 0 ? q.sum(1).max().item<double>() : 0.0;
  fewest_steps_ = n_ + std::max<int64_t>(1, static_cast<int64_t>(std::ceil(most_demand - 1e-3)));
}

torch::Tensor CvrpEnvironment::feasible() const {
  auto customers = visited_.logical_not() & (q_ + used_.unsqueeze(1) <= 1);
  customers.select(1, 0).fill_(false);
  const auto depot = (current_ != 0) | customers.any(1).logical_not();
  customers.select(1, 0).copy_(depot);
  return customers;
}

void CvrpEnvironment::step(const torch::Tensor& action) {
  length_ = length_ + (node(locations_, action) - node(locations_, current_)).norm(2, 1);
  const auto at_depot = action == 0;
  used_ = torch::where(at_depot, torch::zeros_like(used_),
                       used_ + q_.gather(1, action.unsqueeze(1)).squeeze(1));
  visited_.scatter_(1, action.unsqueeze(1), true);
  visited_.select(1, 0).fill_(false);
  current_ = action.clone();
  all_finished_ = (visited_.slice(1, 1).all(1) & at_depot).all();
  ++steps_;
}

RoutingContext CvrpEnvironment::context() const {
  return {current_.unsqueeze(1), (1 - used_).unsqueeze(1), false};
}

}  // namespace eie::cvrp
