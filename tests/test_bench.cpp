// Benchmark descriptions: parsed with line numbers in errors; a tiny benchmark
// writes tables whose cells come from independently checked costs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <thread>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/bench/bench_config.h"
#include "src/bench/bench_runner.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "src/util/peak_memory.h"
#include "tests/test_support.h"

namespace eie {
namespace {

std::filesystem::path broken(const std::string& name) {
  return std::filesystem::path(EIE_TEST_DATA) / "broken" / name;
}

void expect_error(const std::filesystem::path& path, const std::string& fragment) {
  try {
    (void)read_bench_config(path);
    FAIL() << "accepted " << path;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(BenchConfig, ErrorsNameFileAndLine) {
  expect_error(broken("malformed.toml"), "malformed.toml:3");
  expect_error(broken("unknown_key.toml"), "unknown_key.toml:4: unknown key 'instance'");
  expect_error(broken("wrong_type.toml"), "wrong_type.toml:2: wrong type in 'sizes'");
  expect_error(broken("missing.toml"), "no such file");
}

// Sizes no machine could hold are refused with the key and its limit, before any
// memory is asked for (LibTorch's allocator would name neither).
TEST(BenchConfig, SizesBeyondTheStatedLimitsNameTheKey) {
  const auto dir = test::scratch_dir("bench-limits");
  const auto with = [&](const std::string& lines) {
    std::ofstream(dir / "c.toml") << "name = \"c\"\nmethods = [\"nn\"]\n" << lines;
    return dir / "c.toml";
  };
  expect_error(with("sizes = [10]\ninstances = 99999999999\n"),
               "'instances' must be in 1..10000000, got 99999999999");
  expect_error(with("sizes = [2000000000]\n"), "'sizes' must be in 1..1000000, got 2000000000");
  expect_error(with("sizes = [1000000]\ninstances = 5000\n"), "'instances' x 'sizes' asks for");
  expect_error(with("sizes = [10]\nbatch = -1\n"), "'batch' must be in 0..10000000");
}

// A fuzzing finding: a quoted key may hold escaped line breaks and be of any
// length; the error quotes a short excerpt of it on one line.
TEST(BenchConfig, AnUnknownKeyIsQuotedOnOneLine) {
  const auto dir = test::scratch_dir("bench-odd-key");
  std::ofstream(dir / "c.toml") << "\"a\\nb\\r" << std::string(500, 'x') << "\" = 1\n";
  try {
    (void)read_bench_config(dir / "c.toml");
    FAIL() << "accepted an unknown key";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("c.toml:1: unknown key 'a?b?"), std::string::npos) << what;
    EXPECT_EQ(what.find_first_of("\r\n"), std::string::npos) << what;
    EXPECT_LT(what.size(), 300u) << what;
  }
}

TEST(BenchConfig, LocalSearchNamesAreDistinctAndNonEmpty) {
  const auto dir = test::scratch_dir("bench-improve-names");
  for (const auto* improve : {"\"\"", "[\"2opt\", \"2opt\"]", "[\"oropt\", \"\"]"}) {
    std::ofstream(dir / "c.toml") << "name = \"c\"\nsizes = [10]\nimprove = " << improve << "\n";
    expect_error(dir / "c.toml", "c.toml:3: 'improve' needs distinct, non-empty names");
  }
}

TEST(BenchConfig, ShippedExperimentsParse) {
  for (const auto* name :
       {"tsp_extrapolation.toml", "tsp_extrapolation_unit.toml", "tsp_extrapolation_kool.toml",
        "cvrp_extrapolation.toml", "cvrp_extrapolation_kool.toml", "bpp3d_extrapolation.toml"}) {
    const auto c = read_bench_config(std::filesystem::path(EIE_SOURCE_DIR) / "experiments" / name);
    EXPECT_EQ(c.sizes, (std::vector<int64_t>{100, 200, 400, 800, 1600})) << name;
    // Packing runs ~10x slower per instance.
    EXPECT_GE(c.instances, c.problem == "bpp3d" ? 16 : 128) << name;
    EXPECT_EQ(c.scales.size(), 7u) << name;
  }
}

TEST(Bench, PolicyRowsAsDecodedAndAfterEachLocalSearch) {
  const auto dir = test::scratch_dir("bench-improve");
  auto agent = make_agent(make_problem("tsp"), NetworkOptions{}, 20);
  save_model(*agent, dir / "m.h5");
  std::ofstream(dir / "b.toml") << "name = \"b\"\nsizes = [30]\ninstances = 4\nmodels = [\""
                                << (dir / "m.h5").string()
                                << "\"]\nimprove = [\"2opt\", \"oropt\"]\nimprove_both = true\n";
  const auto config = read_bench_config(dir / "b.toml");
  int64_t done = 0;
  const auto result = run_bench(config, 0, [&](int64_t k) { done += k; });
  EXPECT_EQ(result.rows, (std::vector<std::string>{"sqrt", "sqrt + 2opt", "sqrt + oropt"}));
  EXPECT_EQ(done, bench_workload(config));
  const auto& decoded = result.cells.at({"sqrt", 30}).costs;
  for (const auto* row : {"sqrt + 2opt", "sqrt + oropt"}) {
    const auto& improved = result.cells.at({row, 30}).costs;
    ASSERT_EQ(improved.size(), decoded.size()) << row;
    for (size_t i = 0; i < decoded.size(); ++i) EXPECT_LE(improved[i], decoded[i] + 1e-9) << row;
  }
}

TEST(Bench, ClassicalRowsOnTinyInstances) {
  const auto dir = test::scratch_dir("bench");
  std::ofstream(dir / "tiny.toml")
      << "name = \"tiny\"\nsizes = [10, 20]\ninstances = 6\nseeds = [1, 2]\n"
         "methods = [\"nn\", \"nn+2opt\"]\n";
  const auto config = read_bench_config(dir / "tiny.toml");
  int64_t done = 0;
  const auto result = run_bench(config, 0, [&](int64_t k) { done += k; });
  EXPECT_EQ(done, bench_workload(config));
  const auto& nn = result.cells.at({"nn", 20});
  const auto& improved = result.cells.at({"nn+2opt", 20});
  ASSERT_EQ(nn.costs.size(), 12u);
  for (size_t i = 0; i < nn.costs.size(); ++i) EXPECT_LE(improved.costs[i], nn.costs[i] + 1e-9);
  // CPU time is measured too, in seconds: more than none, at most every core's share.
  const double cores = std::thread::hardware_concurrency();
  for (const auto* cell : {&nn, &improved}) {
    EXPECT_GT(cell->cpu_seconds, 0);
    EXPECT_LE(cell->cpu_seconds, cell->seconds * cores + 1e-3);
  }
  PeakMemory probe;
  probe.reset();
  if (!std::isnan(probe.mib())) {  // measured where Linux can, for every solving row
    EXPECT_FALSE(std::isnan(improved.peak_mib));
    EXPECT_FALSE(std::isnan(nn.peak_mib));
  }
  write_bench_tables(config, result, "eie bench tiny.toml", dir);
  std::ifstream md(dir / "tiny.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Seconds per instance:"), std::string::npos) << text;
  EXPECT_NE(text.find("CPU seconds per instance ("), std::string::npos) << text;
  EXPECT_NE(text.find("Memory while solving (MiB"), std::string::npos) << text;
  std::ifstream csv(dir / "tiny.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",seconds_per_instance,cpu_seconds_per_instance,solving_peak_mib,"),
            std::string::npos)
      << header;
}

// Rows for each scale and bias; row names with commas stay one CSV field.
TEST(Bench, BiasRowsAndQuotedRowNames) {
  const auto dir = test::scratch_dir("bench-bias");
  auto agent = make_agent(make_problem("tsp"), test::small_network(32, 4, 32, 2), 10);
  save_model(*agent, dir / "m.h5");
  std::ofstream(dir / "b.toml") << "name = \"b\"\nsizes = [12]\ninstances = 3\nmodels = [\""
                                << (dir / "m.h5").string()
                                << "\"]\nscales = [\"sqrt\", \"infoscale\"]\n"
                                   "bias = [\"none\", \"\", \"logn:2@glimpse,pointer\"]\n";
  const auto config = read_bench_config(dir / "b.toml");
  const auto result = run_bench(config, 0, [](int64_t) {});
  EXPECT_EQ(result.rows,
            (std::vector<std::string>{"sqrt, bias none", "sqrt, bias as trained",
                                      "sqrt, bias logn 2 (glimpse,pointer)", "infoscale, bias none",
                                      "infoscale, bias as trained",
                                      "infoscale, bias logn 2 (glimpse,pointer)"}));
  write_bench_tables(config, result, "eie bench b.toml", dir);
  std::ifstream csv(dir / "b.csv");
  std::string line;
  std::getline(csv, line);
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("\"sqrt, bias none\",12,", 0), 0u) << line;
  std::ofstream(dir / "bad.toml") << "sizes = [12]\nmethods = [\"nn\"]\nbias = [\"near\"]\n";
  EXPECT_THROW((void)read_bench_config(dir / "bad.toml"), std::invalid_argument);
}

TEST(BenchConfig, PaperCvrpProtocolHasACapacityBlockEach) {
  for (const auto* name : {"cvrp_paper.toml", "cvrp_paper_shipped.toml"}) {
    const auto c = read_bench_config(std::filesystem::path(EIE_SOURCE_DIR) / "experiments" / name);
    EXPECT_EQ(option(c.options, "protocol"), "eie") << name;
    EXPECT_EQ(c.sweep, "capacity") << name;
    EXPECT_EQ(c.sweep_values, (std::vector<std::string>{"10", "15", "20"})) << name;
    EXPECT_EQ(c.scales.size(), 7u) << name;
  }
}

TEST(Bench, CapacityBlocksOfClassicalCvrpRows) {
  const auto dir = test::scratch_dir("bench-cvrp");
  std::ofstream(dir / "c.toml") << "problem = \"cvrp\"\nprotocol = \"eie\"\ncapacities = [10, 20]\n"
                                   "sizes = [60]\ninstances = 4\nmethods = [\"savings\"]\n";
  const auto config = read_bench_config(dir / "c.toml");
  const auto result = run_bench(config, 0, [](int64_t) {});
  EXPECT_EQ(result.rows, (std::vector<std::string>{"C=10 savings", "C=20 savings"}));
  // A larger vehicle never needs more driving on the same customers.
  EXPECT_LT(result.cells.at({"C=20 savings", 60}).repetition_means[0],
            result.cells.at({"C=10 savings", 60}).repetition_means[0]);
}

TEST(Bench, PackingTableShowsLoadRatesAndTheVolumeBound) {
  const auto dir = test::scratch_dir("bench-bpp");
  std::ofstream(dir / "b.toml")
      << "name = \"b\"\nproblem = \"bpp3d\"\nbases = [\"60x50\", \"80x60\"]\n"
         "sizes = [12]\ninstances = 3\nmethods = [\"heightmap\"]\n"
         "bound = true\n";
  const auto config = read_bench_config(dir / "b.toml");
  int64_t done = 0;
  const auto result = run_bench(config, 0, [&](int64_t k) { done += k; });
  EXPECT_EQ(done, bench_workload(config));
  for (const auto* base : {"60x50 ", "80x60 "}) {
    const auto& heuristic = result.cells.at({std::string(base) + "heightmap", 12});
    const auto& bound = result.cells.at({std::string(base) + "bound", 12});
    for (size_t i = 0; i < heuristic.costs.size(); ++i) {
      EXPECT_GE(heuristic.costs[i], bound.costs[i]);  // costs are minus load rates
      EXPECT_LT(heuristic.costs[i], 0);
    }
  }
  write_bench_tables(config, result, "eie bench b.toml", dir);
  std::ifstream md(dir / "b.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("mean load_rate"), std::string::npos) << text;
  EXPECT_EQ(text.find("| 60x50 heightmap | -"), std::string::npos) << text;  // shown positive
  // The best row is a solution, named per base: the bound is not one.
  EXPECT_NE(text.find("Best row per size, 60x50: n=12: 60x50 heightmap;"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Best row per size, 80x60: n=12: 80x60 heightmap;"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(protocol "), std::string::npos) << text;
}

}  // namespace
}  // namespace eie
