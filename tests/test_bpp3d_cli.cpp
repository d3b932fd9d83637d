// 3D packing through the real binary: .bpp files in, checked placements out,
// and one clear line (exit != 0, nothing written) for every kind of bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "problems/bpp3d/bpp_file.h"
#include "problems/bpp3d/packing.h"
#include "src/agent/policy_registry.h"
#include "src/io/dataset.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::broken;
using test::eie;
using test::expect_clean_failure;
using test::model_file;

std::filesystem::path small_instance(const std::filesystem::path& dir) {
  const auto path = dir / "small.bpp";
  std::ofstream(path) << "# three boxes\n60 50 3\n30 50 10\n50 30 10\n20 20 20\n";
  return path;
}

void expect_checked_placements(const test::Run& run, const std::filesystem::path& bpp,
                               const std::filesystem::path& out) {
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  const auto data = bpp3d::read_bpp(bpp);
  const auto packed = bpp3d::read_placements(out);
  const auto height = bpp3d::check_packing(data, packed.placements);
  EXPECT_EQ(packed.height, height);
  const auto at = run.stdout.find("\"height\":");
  ASSERT_NE(at, std::string::npos) << run.stdout;
  EXPECT_EQ(std::stol(run.stdout.substr(at + 9)), height);
  EXPECT_NE(run.stdout.find("\"load_rate\""), std::string::npos);
}

TEST(PackingCli, HeuristicAndPolicyWriteCheckedPlacements) {
  const auto dir = test::scratch_dir("bpp-cli");
  const auto bpp = small_instance(dir);
  expect_checked_placements(
      eie("solve " + bpp.string() + " --method heightmap --json --out " + (dir / "h.txt").string()),
      bpp, dir / "h.txt");
  const auto model = model_file(dir, "bpp3d", "bpp3d").string();
  for (const auto* decode : {"greedy", "sample:3"}) {
    const auto out = dir / (std::string(decode).substr(0, 3) + ".txt");
    expect_checked_placements(eie("solve " + bpp.string() + " --model " + model + " --decode " +
                                  decode + " --scale infoscale --json --out " + out.string()),
                              bpp, out);
  }
}

class BrokenBppFile : public ::testing::TestWithParam<std::string> {};

TEST_P(BrokenBppFile, OneLineErrorAndNoPlacements) {
  const auto dir = test::scratch_dir("bpp-cli-broken");
  const auto run = eie("solve " + broken(GetParam()).string() + " --method heightmap --out " +
                       (dir / "p.txt").string());
  expect_clean_failure(run, GetParam());
  EXPECT_FALSE(std::filesystem::exists(dir / "p.txt"));
}

INSTANTIATE_TEST_SUITE_P(Files, BrokenBppFile,
                         ::testing::Values("bpp_too_large.bpp", "bpp_zero_side.bpp",
                                           "bpp_negative_side.bpp", "bpp_non_integer.bpp",
                                           "bpp_truncated.bpp", "bpp_no_boxes.bpp",
                                           "bpp_extra_tokens.bpp"));

TEST(PackingCli, ModelsOfOtherProblemsAndBadDatasets) {
  const auto dir = test::scratch_dir("bpp-cli-mismatch");
  const auto bpp = small_instance(dir);
  expect_clean_failure(
      eie("solve " + bpp.string() + " --model " + model_file(dir, "tsp", "tsp").string() +
          " --out " + (dir / "p.txt").string()),
      "trained for tsp, not bpp3d");
  EXPECT_FALSE(std::filesystem::exists(dir / "p.txt"));
  {  // a packing model from before the fit preference: every other tensor is there
    h5::Writer old_layout(dir / "old.h5");
    const auto agent = make_agent(make_problem("bpp3d"), NetworkOptions{}, 20);
    write_spec(old_layout, agent->spec(), "model");
    for (const auto& p : agent->network().named_parameters()) {
      if (p.key().rfind("fit_preference", 0) != 0) old_layout.write("model/" + p.key(), p.value());
    }
    for (const auto& b : agent->network().named_buffers()) {
      old_layout.write("model/" + b.key(), b.value());
    }
    old_layout.commit();
  }
  expect_clean_failure(eie("solve " + bpp.string() + " --model " + (dir / "old.h5").string() +
                           " --out " + (dir / "p.txt").string()),
                       "older layout");
  EXPECT_FALSE(std::filesystem::exists(dir / "p.txt"));
  const auto model = model_file(dir, "bpp3d", "bpp3d").string();
  auto boxes = torch::randint(10, 50, {2, 6, 3}, torch::kInt);
  const auto bin = torch::tensor({120, 100, 140, 110}, torch::kInt).view({2, 2});
  write_dataset(dir / "bases.h5",
                Dataset{"bpp3d", {}, Instances({{"boxes", boxes}, {"bin", bin}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "bases.h5").string() + " --model " + model),
                       "one bin base");
  boxes[1][3][2] = -4;
  write_dataset(
      dir / "neg.h5",
      Dataset{"bpp3d", {}, Instances({{"boxes", boxes}, {"bin", bin[0].repeat({2, 1})}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "neg.h5").string() + " --model " + model),
                       "instance 1");
  expect_clean_failure(eie("gen --problem bpp3d --base 20x20 --out " + (dir / "g.h5").string()),
                       "may not fit");
  expect_clean_failure(eie("gen --problem bpp3d --protocol kool --out " + (dir / "g.h5").string()),
                       "kool");
  EXPECT_FALSE(std::filesystem::exists(dir / "g.h5"));
}

TEST(PackingCli, GenThenSolveReportsLoadRateAndHeight) {
  const auto dir = test::scratch_dir("bpp-cli-gen");
  const auto data = (dir / "d.h5").string();
  ASSERT_EQ(
      eie("gen --problem bpp3d --protocol attend2pack --n 12 --count 3 --out " + data).exit_code,
      0);
  const auto run = eie("solve --dataset " + data + " --method heightmap --json");
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_NE(run.stdout.find("\"mean_load_rate\""), std::string::npos) << run.stdout;
  EXPECT_NE(run.stdout.find("\"mean_height\""), std::string::npos) << run.stdout;
}

}  // namespace
}  // namespace eie
