// CVRP through the real binary: CVRPLIB files in, checked .sol files out, and
// one clear line (exit != 0, nothing written) for every kind of bad input.
#include <gtest/gtest.h>

#include "problems/cvrp/cvrplib.h"
#include "src/io/dataset.h"
#include "src/problem/registry.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::broken;
using test::eie;
using test::expect_clean_failure;
using test::model_file;

std::filesystem::path x_n101() { return test::shared_dir() / "instances/X-n101-k25.vrp"; }

// The .sol file passes the independent check and states the printed cost.
void expect_checked_sol(const test::Run& run, const std::filesystem::path& sol) {
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  const auto cost_at = run.stdout.find("\"cost\":");
  ASSERT_NE(cost_at, std::string::npos) << run.stdout;
  const long printed = std::stol(run.stdout.substr(cost_at + 7));
  const auto instance = cvrp::read_cvrplib(x_n101());
  const auto written = cvrp::read_sol(sol);
  EXPECT_NO_THROW(cvrp::check_routes(instance.data, written.routes));
  EXPECT_EQ(cvrp::cvrplib_length(instance.data, written.routes), printed);
  EXPECT_EQ(written.cost, printed);
  EXPECT_GE(printed, 27591);
}

TEST(CvrpCli, SavingsAndLocalSearchWriteACheckedSolFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cvrp-cli-sol");
  const auto run = eie("solve " + x_n101().string() +
                       " --method savings --improve local --optimum 27591 --json --out " +
                       (dir / "x.sol").string());
  expect_checked_sol(run, dir / "x.sol");
  EXPECT_NE(run.stdout.find("\"gap\""), std::string::npos);
}

TEST(CvrpCli, PolicyWithEveryDecodingWritesACheckedSolFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cvrp-cli-policy");
  const auto model = model_file(dir, "cvrp", "cvrp").string();
  for (const auto* decode : {"greedy", "sample:4", "aug8"}) {
    const auto sol = dir / (std::string(decode).substr(0, 3) + ".sol");
    const auto run = eie("solve " + x_n101().string() + " --model " + model + " --decode " +
                         decode + " --scale logn-base --json --out " + sol.string());
    expect_checked_sol(run, sol);
  }
}

class BrokenVrpFile : public ::testing::TestWithParam<std::string> {};

TEST_P(BrokenVrpFile, OneLineErrorAndNoSol) {
  const auto dir = test::scratch_dir("cvrp-cli-broken");
  const auto run = eie("solve " + broken(GetParam()).string() + " --method savings --out " +
                       (dir / "x.sol").string());
  expect_clean_failure(run, GetParam());
  EXPECT_FALSE(std::filesystem::exists(dir / "x.sol"));
}

INSTANTIATE_TEST_SUITE_P(
    Files, BrokenVrpFile,
    ::testing::Values("cvrp_demand_over_capacity.vrp", "cvrp_zero_capacity.vrp",
                      "cvrp_negative_capacity.vrp", "cvrp_no_depot_section.vrp",
                      "cvrp_depot_out_of_range.vrp", "cvrp_nan_coordinate.vrp",
                      "cvrp_short_demand_section.vrp", "cvrp_long_demand_section.vrp",
                      "cvrp_negative_demand.vrp", "cvrp_truncated_coords.vrp", "cvrp_geo.vrp"));

TEST(CvrpCli, TspModelOnAVrpFileFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cvrp-cli-tsp-model");
  const auto run =
      eie("solve " + x_n101().string() + " --model " + model_file(dir, "tsp", "tsp").string() +
          " --out " + (dir / "x.sol").string());
  expect_clean_failure(run, "trained for tsp, not cvrp");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.sol"));
}

TEST(CvrpCli, BadDatasets) {
  const auto dir = test::scratch_dir("cvrp-cli-datasets");
  const auto model = model_file(dir, "cvrp", "cvrp").string();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
  const auto good = make_problem("cvrp")->generate(3, 10, gen);
  auto demand = good.at("demand").clone();
  demand[2][4] = 51;
  write_dataset(dir / "over.h5", Dataset{"cvrp", {}, good.with("demand", demand)});
  expect_clean_failure(eie("solve --dataset " + (dir / "over.h5").string() + " --model " + model),
                       "above the capacity");
  write_dataset(dir / "zero.h5", Dataset{"cvrp", {}, good.with("capacity", torch::zeros({3}))});
  expect_clean_failure(eie("solve --dataset " + (dir / "zero.h5").string() + " --model " + model),
                       "capacity");
  write_dataset(dir / "tsp.h5",
                Dataset{"tsp", {}, Instances({{"coords", torch::rand({2, 9, 2})}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "tsp.h5").string() + " --model " + model),
                       "trained for cvrp, not tsp");
}

TEST(CvrpCli, GenThenSolveBothProtocols) {
  const auto dir = test::scratch_dir("cvrp-cli-gen");
  const auto model = model_file(dir, "cvrp", "cvrp").string();
  for (const std::string protocol : {"kool --capacity kool", "eie --capacity 15"}) {
    const auto data = (dir / "d.h5").string();
    ASSERT_EQ(eie("gen --problem cvrp --protocol " + protocol +
                  " --n 20 --count 5 --seed 3 --out " + data)
                  .exit_code,
              0);
    const auto read = read_dataset(data);
    EXPECT_EQ(read.options.at("protocol"), protocol.substr(0, protocol.find(' ')));
    for (const std::string& method :
         {"--model " + model, std::string("--method savings --improve local")}) {
      const auto run = eie("solve --dataset " + data + " " + method + " --json");
      ASSERT_EQ(run.exit_code, 0) << run.stderr;
      EXPECT_NE(run.stdout.find("\"count\":5"), std::string::npos) << run.stdout;
    }
  }
  expect_clean_failure(
      eie("gen --problem cvrp --protocol poisson --out " + (dir / "p.h5").string()), "poisson");
  expect_clean_failure(eie("gen --problem cvrp --capacity 0 --out " + (dir / "p.h5").string()),
                       "capacity");
  EXPECT_FALSE(std::filesystem::exists(dir / "p.h5"));
}

}  // namespace
}  // namespace eie
