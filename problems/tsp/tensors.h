#pragma once

// TSP tensors as plain cities and tours, for the classical code, and back.

#include <torch/torch.h>

#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"
#include "src/problem/instances.h"

namespace eie::tsp {

// The "coords" of every instance [B, n, 2], in float64.
[[nodiscard]] std::vector<std::vector<Point>> cities_of(const Instances& instances);
// Cities of one count per instance as "coords" [B, n, 2] (float32, CPU).
[[nodiscard]] torch::Tensor coords_tensor(const std::vector<std::vector<Point>>& cities);
// Rows of actions [B, n] as tours.
[[nodiscard]] std::vector<Tour> tours_of(const torch::Tensor& actions);
// Tours of one length as actions [B, n] (int64, CPU).
[[nodiscard]] torch::Tensor tensor_of(const std::vector<Tour>& tours);

}  // namespace eie::tsp
