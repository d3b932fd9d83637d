#include "problems/cvrp/problem.h"

#include <stdexcept>

#include "problems/common/rotated_points.h"
#include "problems/cvrp/environment.h"
#include "problems/cvrp/heuristics.h"
#include "problems/cvrp/local_search.h"
#include "src/util/parse.h"

namespace eie::cvrp {

Protocol parse_protocol(const std::string& text) {
  if (text == "kool") return Protocol::kool;
  if (text == "eie") return Protocol::eie;
  throw std::invalid_argument(
      "protocol: expected 'kool' (demands U{1..9}) or 'eie' (U(0,1)), got '" + text + "'");
}

std::string to_string(Protocol protocol) { return protocol == Protocol::kool ? "kool" : "eie"; }

namespace {

std::vector<CvrpData> data_of(const Instances& instances) {
  const auto depot = instances.at("depot").to(torch::kCPU, torch::kDouble).contiguous();
  const auto coords = instances.at("coords").to(torch::kCPU, torch::kDouble).contiguous();
  const auto demand = instances.at("demand").to(torch::kCPU, torch::kDouble).contiguous();
  const auto capacity = instances.at("capacity").to(torch::kCPU, torch::kDouble).contiguous();
  const int64_t B = coords.size(0), n = coords.size(1);
  std::vector<CvrpData> out(B);
  for (int64_t b = 0; b < B; ++b) {
    auto& d = out[b];
    d.depot = {depot[b][0].item<double>(), depot[b][1].item<double>()};
    const auto* c = coords[b].data_ptr<double>();
    const auto* q = demand[b].data_ptr<double>();
    d.customers.resize(n);
    for (int64_t i = 0; i < n; ++i) d.customers[i] = {c[2 * i], c[2 * i + 1]};
    d.demands.assign(q, q + n);
    d.capacity = capacity[b].item<double>();
  }
  return out;
}

std::vector<Routes> routes_of(const torch::Tensor& actions) {
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<Routes> out(a.size(0));
  for (int64_t b = 0; b < a.size(0); ++b) {
    const auto* row = a[b].data_ptr<int64_t>();
    out[b] = routes_of_actions(std::vector<int64_t>(row, row + a.size(1)));
  }
  return out;
}

// Actions padded with the depot (0) to a common width.
torch::Tensor actions_of(const std::vector<Routes>& routes) {
  std::vector<std::vector<int64_t>> rows;
  size_t width = 1;
  for (const auto& r : routes) {
    rows.push_back(actions_of_routes(r));
    width = std::max(width, rows.back().size());
  }
  auto out =
      torch::zeros({static_cast<int64_t>(rows.size()), static_cast<int64_t>(width)}, torch::kLong);
  for (size_t b = 0; b < rows.size(); ++b) {
    std::copy(rows[b].begin(), rows[b].end(), out[b].data_ptr<int64_t>());
  }
  return out;
}

}  // namespace

CvrpProblem::CvrpProblem(Generation generation) : generation_(std::move(generation)) {
  if (!generation_.capacity.empty() && generation_.capacity != "kool") {
    const double c = parse_double(generation_.capacity, "capacity");
    if (!(c > 0) || !std::isfinite(c))
      throw std::invalid_argument("capacity must be a positive number, got " +
                                  generation_.capacity);
  }
}

double CvrpProblem::capacity_for(int64_t n) const {
  if (generation_.capacity == "kool") {
    if (n >= 100) return 50;
    if (n >= 50) return 40;
    return n >= 20 ? 30 : 20;
  }
  if (!generation_.capacity.empty()) return parse_double(generation_.capacity, "capacity");
  return generation_.protocol == Protocol::kool ? 50 : 10;
}

Instances CvrpProblem::generate(int64_t count, int64_t n, torch::Generator& generator) const {
  if (n < 1) throw std::invalid_argument("cvrp: n must be at least 1, got " + std::to_string(n));
  const auto capacity = capacity_for(n);
  auto coords = generate_points(count, n, generation_.distribution, generator);
  auto demand = torch::rand({count, n}, generator);
  if (generation_.protocol == Protocol::kool) demand = torch::floor(demand * 9) + 1;
  // U(0,1) may draw exactly 0: a customer without demand is not a valid instance.
  else
    demand = demand.clamp_min(std::numeric_limits<float>::min());
  auto depot = torch::rand({count, 2}, generator);
  return Instances({{"depot", depot},
                    {"coords", coords},
                    {"demand", demand},
                    {"capacity", torch::full({count}, capacity, torch::kFloat)}});
}

void CvrpProblem::validate(const Instances& instances) const {
  const auto& depot = instances.at("depot");
  const auto& coords = instances.at("coords");
  const auto& demand = instances.at("demand");
  const auto& capacity = instances.at("capacity");
  if (coords.dim() != 3 || coords.size(2) != 2)
    throw std::invalid_argument("cvrp: coords must have shape [count, n, 2]");
  if (coords.size(1) < 1) throw std::invalid_argument("cvrp: instances have no customers");
  if (depot.dim() != 2 || depot.size(1) != 2)
    throw std::invalid_argument("cvrp: depot must have shape [count, 2]");
  if (demand.dim() != 2 || demand.size(1) != coords.size(1))
    throw std::invalid_argument("cvrp: demand must have shape [count, n] like coords");
  if (capacity.dim() != 1) throw std::invalid_argument("cvrp: capacity must have shape [count]");
  for (const auto& data : data_of(instances)) data.validate();
}

int64_t CvrpProblem::size(const Instances& instances) const {
  return instances.at("coords").size(1);
}

torch::Tensor CvrpProblem::check(const Instances& instances, const torch::Tensor& actions) const {
  const auto data = data_of(instances);
  const auto routes = routes_of(actions);
  if (routes.size() != data.size()) throw std::logic_error("one solution per instance expected");
  auto costs = torch::empty({static_cast<int64_t>(data.size())}, torch::kDouble);
  auto* out = costs.data_ptr<double>();
  for (size_t b = 0; b < data.size(); ++b) {
    check_routes(data[b], routes[b]);
    out[b] = routes_length(data[b], routes[b]);
  }
  return costs;
}

torch::Tensor CvrpProblem::start_actions(const Instances& instances, int64_t K) const {
  const auto& coords = instances.at("coords");  // customers: actions 1..n (0 is the depot)
  return (spread_choices(coords.size(1), K, coords.device()) + 1).expand({coords.size(0), K});
}

Instances CvrpProblem::permute(const Instances& instances, const torch::Tensor& perm) const {
  return instances.with("coords", instances.at("coords").index_select(1, perm))
      .with("demand", instances.at("demand").index_select(1, perm));
}

torch::Tensor CvrpProblem::unpermute(const torch::Tensor& actions, const torch::Tensor& perm) const {
  // Node 0 is the depot; customer j of the permuted instance is customer perm[j].
  const auto nodes = torch::cat({torch::zeros({1}, perm.options()), perm + 1});
  return nodes.index({actions});
}

std::vector<Instances> CvrpProblem::symmetries(const Instances& instances) const {
  // The 8 symmetries of the unit square, applied to the depot and the customers alike.
  const auto points = torch::cat({instances.at("depot").unsqueeze(1), instances.at("coords")}, 1);
  const auto x = points.select(2, 0), y = points.select(2, 1);
  const auto rx = 1 - x, ry = 1 - y;
  std::vector<Instances> out;
  for (const auto& [a, b] : std::vector<std::pair<torch::Tensor, torch::Tensor>>{
           {x, y}, {rx, y}, {x, ry}, {rx, ry}, {y, x}, {ry, x}, {y, rx}, {ry, rx}}) {
    const auto moved = torch::stack({a, b}, 2);
    out.push_back(instances.with("depot", moved.select(1, 0)).with("coords", moved.slice(1, 1)));
  }
  return out;
}

Instances CvrpProblem::rotated(const Instances& instances, double radians) const {
  // The depot turns with the customers.
  const auto points = torch::cat({instances.at("depot").unsqueeze(1), instances.at("coords")}, 1);
  const auto turned = rotated_into_square(points, radians, 0.0, 1.0);
  return instances.with("depot", turned.select(1, 0)).with("coords", turned.slice(1, 1));
}

torch::Tensor CvrpProblem::construct(const std::string& method, const Instances& instances) const {
  return actions_of(construct_all(method, data_of(instances)));
}

torch::Tensor CvrpProblem::improve(const std::string& method, const Instances& instances,
                                   const torch::Tensor& actions) const {
  auto routes = routes_of(actions);
  improve_all(method, data_of(instances), routes);
  return actions_of(routes);
}

torch::Tensor CvrpProblem::search(const Instances& instances, const torch::Tensor& actions,
                                  double seconds, uint64_t seed) const {
  auto routes = routes_of(actions);
  iterated_search_all(data_of(instances), routes, seconds, seed);
  return actions_of(routes);
}

std::unique_ptr<RoutingEnvironment> CvrpProblem::environment(const Instances& instances) const {
  const auto& coords = instances.at("coords");
  const auto locations = torch::cat({instances.at("depot").unsqueeze(1), coords}, 1);
  // Kool et al.'s normalisation, in the instances' precision (float32 in files).
  const auto q = instances.at("demand") / instances.at("capacity").unsqueeze(1);
  const auto features = torch::cat(
      {locations, torch::cat({torch::zeros_like(q.slice(1, 0, 1)), q}, 1).unsqueeze(2)}, 2);
  return std::make_unique<CvrpEnvironment>(locations, features, q);
}

}  // namespace eie::cvrp
