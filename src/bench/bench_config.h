#pragma once

// A length-extrapolation benchmark, declared in TOML (experiments/*.toml):
//
//   name = "tsp_extrapolation"         # results/tables/<name>.md and .csv
//   problem = "tsp"
//   domain = "unit"                    # any option of the problem (`eie gen --help`):
//                                      # tsp domain; cvrp protocol, capacity; bpp3d ...
//   capacities = [10, 15, 20]          # a problem's sweep key: one block of rows per value
//                                      # (cvrp capacities, bpp3d bases; optional)
//   sizes = [100, 200, 400, 800, 1600]
//   instances = 128                    # per size and repetition
//   seeds = [1]                        # instance seeds; repetitions = seeds x models
//   models = ["results/models/tsp100.h5"]
//   scales = ["sqrt", "logn-base", "eie:results/scales/d16-N100-N1600.h5",
//             "calibrated", "sqrt@100/pointer"]   # @K[/PARTS]: a window, as --window-at
//   scale_at = "all"                   # encoder or all (encoder and glimpse)
//   bias = ["none", "logn:40", "entropy"]  # distance biases, as --bias: rows for each
//                                      # scale and bias (a string: one bias; default: as trained)
//   decodes = ["greedy"]               # greedy, sample:K, aug8
//   methods = ["nn", "nn+2opt"]        # classical rows (optional)
//   improve = "2opt"                   # local search after every policy row (optional;
//                                      # a list gives rows for each: ["2opt", "oropt"])
//   improve_both = false               # rows without local search as well
//   bound = false                      # a "bound" row: the problem's cost bound (bpp3d)
//   batch = 0                          # instances decoded together; 0: by size and threads
//   reference = "costs.csv"            # optional "n,cost" rows: gap columns

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "src/problem/registry.h"

namespace eie {

struct BenchConfig {
  std::string name;                         // table file stem
  std::string problem;                      // a registered problem's name
  ProblemOptions options;                   // the problem's options, as given
  std::string sweep;                        // an option with a block of rows per value ("": none)
  std::vector<std::string> sweep_values;    // its values, one block each
  std::vector<int64_t> sizes;               // columns
  int64_t instances = 128;                  // per size and repetition
  std::vector<int64_t> seeds{1};            // instance seeds
  std::vector<std::string> models;          // model files
  std::vector<std::string> scales{"sqrt"};  // scale policies (rows)
  std::string scale_at = "all";             // where scales apply
  std::vector<std::string> biases{""};      // distance bias policies ("": as trained)
  std::vector<std::string> decodes{"greedy"};  // decoding strategies (rows)
  std::vector<std::string> methods;            // classical method rows, "nn" or "nn+2opt"
  std::vector<std::string> improve;             // local searches after policy rows (rows each)
  bool improve_both = false;                   // policy rows without `improve` as well
  bool bound = false;                          // add the problem's cost bound as a row
  int64_t batch = 0;                           // decode chunk; 0 = chosen by size and threads
  std::filesystem::path reference;             // optional reference costs per size
};

// Throws std::invalid_argument as "FILE:LINE: what is wrong".
[[nodiscard]] BenchConfig read_bench_config(const std::filesystem::path& path);
// The same from a TOML text; `path` names it in errors and gives the default name.
[[nodiscard]] BenchConfig parse_bench_config(const std::string& text,
                                             const std::filesystem::path& path);

}  // namespace eie
