#include "python/src/bench.h"

#include "src/bench/bench_runner.h"

namespace eie::python {

namespace {

// {"name", "rows", "cells": [{"row", "n", "mean", "costs", "seconds", "cpu_seconds",
// "peak_mib"}]}; with `out`, the tables <out>/<name>.md and .csv as eie bench writes them.
py::dict bench(const std::filesystem::path& path, int64_t seed,
               const std::optional<std::filesystem::path>& out, const std::string& device,
               const std::optional<int64_t>& threads) {
  require_file(path);
  use_threads(threads);
  const auto offset = seed_of(seed) == 1234 ? 0 : static_cast<uint64_t>(seed);
  const auto where = device_of(device);
  BenchConfig config;
  BenchResult result;
  {
    const py::gil_scoped_release release;
    config = read_bench_config(path);
    result = run_bench(
        config, offset, [](int64_t) {}, where);
    if (out) {
      std::filesystem::create_directories(*out);
      std::string command = "eie bench " + path.string();
      if (offset != 0) command += " --seed " + std::to_string(seed);
      write_bench_tables(config, result, command, *out);
    }
  }
  py::list cells;
  for (const auto& [key, cell] : result.cells) {
    py::dict c;
    c["row"] = key.first;
    c["n"] = key.second;
    double sum = 0;
    for (const double cost : cell.costs) sum += cost;
    c["mean"] = sum / static_cast<double>(cell.costs.size());
    c["repetition_means"] = cell.repetition_means;
    c["costs"] = torch::tensor(cell.costs, torch::kDouble);
    c["seconds"] = cell.seconds;
    c["cpu_seconds"] = cell.cpu_seconds;
    c["peak_mib"] = cell.peak_mib;
    cells.append(c);
  }
  py::dict table;
  table["name"] = config.name;
  table["rows"] = result.rows;
  table["cells"] = cells;
  return table;
}

}  // namespace

void bind_bench(py::module_& m) {
  m.def("bench", &bench, py::arg("path"), py::kw_only(), py::arg("seed") = 1234,
        py::arg("out") = py::none(), py::arg("device") = "cpu", py::arg("threads") = py::none(),
        "Runs a benchmark file (experiments/*.toml) as `eie bench` does; its cells as a "
        "dict, and with `out` the tables <out>/<name>.md and .csv.");
}

}  // namespace eie::python
