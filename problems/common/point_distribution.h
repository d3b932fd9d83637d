#pragma once

// Where generated nodes lie in the unit square: uniform as in the papers' benchmarks, or
// laid out as real instance files often are (clusters, mixed densities, elongated areas).

#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "src/problem/registry.h"

namespace eie {

enum class PointDistribution { uniform, clustered, mixed, elongated, varied };

// uniform, clustered, mixed, elongated or varied; std::invalid_argument naming the values
// otherwise.
[[nodiscard]] PointDistribution parse_point_distribution(const std::string& text);
[[nodiscard]] std::string to_string(PointDistribution distribution);

// Points [count, n, 2] in [0,1]^2 (float32), drawn from `generator`:
// - uniform: U([0,1]^2) (one torch::rand call, as before this option existed);
// - clustered: per instance 3 to 8 centres uniform in [0.1,0.9]^2, each point around one
//   of them, chosen uniformly, with Gaussian offsets of sigma 0.06, clipped to the square;
// - mixed: each point uniform or clustered, with probability 1/2 (mixed densities);
// - elongated: uniform in a centred rectangle of aspect 1:1 to 4:1 (uniform aspect, either
//   orientation), its long side the square's (a file such as kroA100, 2:1, is read so);
// - varied: each instance uniform, clustered, mixed or elongated, a quarter each.
// The `distribution` option of the problems that generate points with it (recorded by
// eie gen; uniform by default).
[[nodiscard]] ProblemOption distribution_option();

[[nodiscard]] torch::Tensor generate_points(int64_t count, int64_t n,
                                            PointDistribution distribution,
                                            torch::Generator& generator);

}  // namespace eie
