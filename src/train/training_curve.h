#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/problem/picture.h"

namespace eie {

// A training log (the CSV rows of log.csv, without the header) as a picture: the
// sampled training cost and the greedy validation cost against the epoch, and the
// validation cost against hours of training CPU time, or against minutes of training
// wall clock where some epoch trained on a GPU (GPU-minutes).
[[nodiscard]] Picture training_curve(const std::vector<std::string>& rows,
                                     const std::string& title);

}  // namespace eie
