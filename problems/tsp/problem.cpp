#include "problems/tsp/problem.h"

#include <stdexcept>

#include "problems/common/rotated_points.h"
#include "problems/tsp/environment.h"
#include "problems/tsp/heuristics.h"
#include "problems/tsp/local_search.h"
#include "problems/tsp/tensors.h"
#include "problems/tsp/tiling.h"
#include "problems/tsp/tour.h"

namespace eie::tsp {

Domain parse_domain(const std::string& text) {
  if (text == "unit") return Domain::unit;
  if (text == "symmetric") return Domain::symmetric;
  throw std::invalid_argument("domain: expected 'unit' ([0,1]^2) or 'symmetric' ([-1,1]^2), got '" +
                              text + "'");
}

std::string to_string(Domain domain) { return domain == Domain::unit ? "unit" : "symmetric"; }

Instances TspProblem::generate(int64_t count, int64_t n, torch::Generator& generator) const {
  if (n < 3) throw std::invalid_argument("tsp: n must be at least 3, got " + std::to_string(n));
  auto coords = generate_points(count, n, distribution_, generator);
  if (domain_ == Domain::symmetric) coords = coords * 2 - 1;
  return Instances({{"coords", coords}});
}

void TspProblem::validate(const Instances& instances) const {
  const auto& coords = instances.at("coords");
  if (coords.dim() != 3 || coords.size(2) != 2) {
    throw std::invalid_argument("tsp: coords must have shape [count, n, 2]");
  }
  if (coords.size(1) < 3) {
    throw std::invalid_argument("tsp: n must be at least 3, got " + std::to_string(coords.size(1)));
  }
  if (!torch::isfinite(coords).all().item<bool>()) {
    throw std::invalid_argument("tsp: coords contain NaN or infinite values");
  }
}

int64_t TspProblem::size(const Instances& instances) const {
  return instances.at("coords").size(1);
}

torch::Tensor TspProblem::check(const Instances& instances, const torch::Tensor& actions) const {
  const auto cities = cities_of(instances);
  const auto tours = tours_of(actions);
  if (tours.size() != cities.size()) throw std::logic_error("one tour per instance expected");
  auto costs = torch::empty({static_cast<int64_t>(cities.size())}, torch::kDouble);
  auto* out = costs.data_ptr<double>();
  for (size_t b = 0; b < cities.size(); ++b) {
    check_tour(tours[b], static_cast<int64_t>(cities[b].size()));
    out[b] = tour_length(cities[b], tours[b]);
  }
  return costs;
}

torch::Tensor TspProblem::construct(const std::string& method, const Instances& instances) const {
  return tensor_of(construct_all(method, cities_of(instances)));
}

torch::Tensor TspProblem::improve(const std::string& method, const Instances& instances,
                                  const torch::Tensor& actions) const {
  if (method != "2opt" && method != "oropt")
    throw std::invalid_argument("unknown TSP improvement '" + method + "' (2opt, oropt)");
  auto tours = tours_of(actions);
  local_search_all(cities_of(instances), tours, method == "oropt");
  return tensor_of(tours);
}

torch::Tensor TspProblem::search(const Instances& instances, const torch::Tensor& actions,
                                 double seconds, uint64_t seed) const {
  auto tours = tours_of(actions);
  iterated_search_all(cities_of(instances), tours, seconds, seed);
  return tensor_of(tours);
}

torch::Tensor TspProblem::start_actions(const Instances& instances, int64_t K) const {
  const auto& coords = instances.at("coords");
  return spread_choices(coords.size(1), K, coords.device()).expand({coords.size(0), K});
}

Instances TspProblem::permute(const Instances& instances, const torch::Tensor& perm) const {
  return instances.with("coords", instances.at("coords").index_select(1, perm));
}

torch::Tensor TspProblem::unpermute(const torch::Tensor& actions, const torch::Tensor& perm) const {
  return perm.index({actions});  // city j of the permuted instance is city perm[j]
}

std::vector<Instances> TspProblem::symmetries(const Instances& instances) const {
  const auto& coords = instances.at("coords");
  // Reflection x -> centre*2 - x keeps the instance inside its domain.
  const double twice_centre = domain_ == Domain::unit ? 1.0 : 0.0;
  const auto x = coords.select(2, 0), y = coords.select(2, 1);
  const auto rx = twice_centre - x, ry = twice_centre - y;
  std::vector<Instances> out;
  for (const auto& [a, b] : std::vector<std::pair<torch::Tensor, torch::Tensor>>{
           {x, y}, {rx, y}, {x, ry}, {rx, ry}, {y, x}, {ry, x}, {y, rx}, {ry, rx}}) {
    out.push_back(instances.with("coords", torch::stack({a, b}, 2)));
  }
  return out;
}

Instances TspProblem::rotated(const Instances& instances, double radians) const {
  const double lo = domain_ == Domain::unit ? 0.0 : -1.0;
  return instances.with("coords", rotated_into_square(instances.at("coords"), radians, lo, 1.0));
}

std::unique_ptr<Tiling> TspProblem::tile(const Instances& instances, int64_t size) const {
  return std::make_unique<TspTiling>(instances, size, domain_);
}

std::unique_ptr<RoutingEnvironment> TspProblem::environment(const Instances& instances) const {
  const auto& coords = instances.at("coords");
  auto features = domain_ == Domain::unit ? coords : (coords + 1) / 2;
  return std::make_unique<TspEnvironment>(coords, features);
}

}  // namespace eie::tsp
