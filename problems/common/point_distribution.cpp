#include "problems/common/point_distribution.h"

#include <stdexcept>

namespace eie {

namespace {
constexpr int64_t kFewestClusters = 3, kMostClusters = 8;
constexpr double kClusterSigma = 0.06;
constexpr double kLongestAspect = 4.0;

torch::Tensor clustered(int64_t count, int64_t n, torch::Generator& generator) {
  const auto centres = torch::rand({count, kMostClusters, 2}, generator) * 0.8 + 0.1;
  const auto clusters =
      torch::randint(kFewestClusters, kMostClusters + 1, {count, 1}, generator, torch::kFloat);
  const auto pick =
      (torch::rand({count, n}, generator) * clusters).to(torch::kLong).clamp_max(kMostClusters - 1);
  const auto around = centres.gather(1, pick.unsqueeze(-1).expand({count, n, 2}));
  return (around + torch::randn({count, n, 2}, generator) * kClusterSigma).clamp(0, 1);
}

torch::Tensor mixed(int64_t count, int64_t n, torch::Generator& generator) {
  const auto uniform = torch::rand({count, n, 2}, generator);
  const auto in_clusters = clustered(count, n, generator);
  return torch::where(torch::rand({count, n, 1}, generator) < 0.5, uniform, in_clusters);
}

// Uniform in a rectangle of the square, its long side the square's, centred.
torch::Tensor elongated(int64_t count, int64_t n, torch::Generator& generator) {
  const auto aspect = 1 + torch::rand({count, 1, 1}, generator) * (kLongestAspect - 1);
  const auto sides = torch::cat({torch::ones_like(aspect), 1 / aspect}, 2);  // [count, 1, 2]
  const auto points = torch::rand({count, n, 2}, generator) * sides + (1 - sides) / 2;
  const auto turned = torch::rand({count, 1, 1}, generator) < 0.5;
  return torch::where(turned, points.flip(2), points);
}
}  // namespace

PointDistribution parse_point_distribution(const std::string& text) {
  if (text == "uniform") return PointDistribution::uniform;
  if (text == "clustered") return PointDistribution::clustered;
  if (text == "mixed") return PointDistribution::mixed;
  if (text == "elongated") return PointDistribution::elongated;
  if (text == "varied") return PointDistribution::varied;
  throw std::invalid_argument(
      "distribution: expected uniform, clustered, mixed, elongated or varied, got '" + text + "'");
}

std::string to_string(PointDistribution distribution) {
  switch (distribution) {
    case PointDistribution::uniform:
      return "uniform";
    case PointDistribution::clustered:
      return "clustered";
    case PointDistribution::mixed:
      return "mixed";
    case PointDistribution::elongated:
      return "elongated";
    case PointDistribution::varied:
      return "varied";
  }
  return "uniform";
}

ProblemOption distribution_option() {
  return {"distribution",
          "where nodes lie: uniform (default), clustered (3-8 Gaussian clusters), mixed (half "
          "uniform, half clustered), elongated (uniform in a centred rectangle of aspect 1:1 to "
          "4:1) or varied (each instance one of those four)",
          /*recorded=*/true,
          /*fallback=*/"uniform",
          /*sweep_key=*/"",
          /*sweep_label=*/"",
          /*values=*/{"uniform", "clustered", "mixed", "elongated", "varied"}};
}

torch::Tensor generate_points(int64_t count, int64_t n, PointDistribution distribution,
                              torch::Generator& generator) {
  switch (distribution) {
    case PointDistribution::uniform:
      return torch::rand({count, n, 2}, generator);
    case PointDistribution::clustered:
      return clustered(count, n, generator);
    case PointDistribution::mixed:
      return mixed(count, n, generator);
    case PointDistribution::elongated:
      return elongated(count, n, generator);
    case PointDistribution::varied:
      break;
  }
  // Every kind drawn for every instance, one kept per instance: the draws do not depend
  // on which kinds the instances got.
  const auto kinds =
      torch::stack({torch::rand({count, n, 2}, generator), clustered(count, n, generator),
                    mixed(count, n, generator), elongated(count, n, generator)});
  const auto kind = torch::randint(0, 4, {1, count, 1, 1}, generator);
  return kinds.gather(0, kind.expand({1, count, n, 2})).squeeze(0);
}

}  // namespace eie
