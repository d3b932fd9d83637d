#pragma once

#include "src/bench/bench_config.h"
#include "src/bench/bench_runner.h"
#include "src/problem/picture.h"

namespace eie {

// A bench table as a picture: the mean of every row against n (log-2 axis), or its gap
// to the table's reference costs or to its block's bound row when there is one; beside
// it, seconds per instance against n.
[[nodiscard]] Picture bench_picture(const BenchConfig& config, const BenchResult& result);

}  // namespace eie
