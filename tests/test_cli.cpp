// Bad input through the real binary: one clear line on stderr, exit code != 0,
// and no output file left behind.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "src/agent/model_file.h"
#include "src/io/dataset.h"
#include "src/io/h5_file.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::broken;
using test::eie;
using test::expect_clean_failure;
using test::model_file;
using test::slurp;

class BrokenInstanceFile : public ::testing::TestWithParam<std::string> {};

TEST_P(BrokenInstanceFile, OneLineErrorAndNoTour) {
  const auto dir = test::scratch_dir("cli-broken");
  const auto model = model_file(dir, "tsp", "tsp");
  const auto run = eie("solve " + broken(GetParam()).string() + " --model " + model.string() +
                       " --out " + (dir / "x.tour").string());
  expect_clean_failure(run, GetParam());
  EXPECT_FALSE(std::filesystem::exists(dir / "x.tour"));
}

INSTANTIATE_TEST_SUITE_P(Files, BrokenInstanceFile,
                         ::testing::Values("truncated.tsp", "non_numeric.tsp",
                                           "unsupported_weight.tsp", "explicit_matrix.tsp",
                                           "nan_coords.tsp", "duplicate_id.tsp", "too_small.tsp",
                                           "no_dimension.tsp"));

TEST(Cli, ModelForAnotherProblemFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cli-wrong-problem");
  const auto run =
      eie("solve " + (test::shared_dir() / "instances/kroA100.tsp").string() + " --model " +
          model_file(dir, "tsp", "cvrp").string() + " --out " + (dir / "x.tour").string());
  expect_clean_failure(run, "trained for cvrp, not tsp");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.tour"));
}

TEST(Cli, CorruptAndWrongVersionModelsFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cli-corrupt");
  const auto tsp = (test::shared_dir() / "instances/kroA100.tsp").string();
  expect_clean_failure(eie("solve " + tsp + " --model " + broken("corrupt.h5").string()),
                       "not a readable HDF5 file");
  h5::Writer writer(dir / "v2.h5");
  writer.attribute("format_version", int64_t{2});
  writer.commit();
  expect_clean_failure(eie("solve " + tsp + " --model " + (dir / "v2.h5").string()),
                       "format version 2");
  expect_clean_failure(eie("solve " + tsp + " --model " +
                           (test::shared_dir() / "reference/kool-am/tsp100.h5").string()),
                       "eie import");
}

TEST(Cli, BadDatasets) {
  const auto dir = test::scratch_dir("cli-datasets");
  const auto model = model_file(dir, "tsp", "tsp").string();
  auto coords = torch::rand({2, 5, 2});
  coords[1][3][0] = std::nanf("");
  write_dataset(dir / "nan.h5", Dataset{"tsp", {}, Instances({{"coords", coords}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "nan.h5").string() + " --model " + model),
                       "NaN");
  write_dataset(dir / "empty.h5",
                Dataset{"tsp", {}, Instances({{"coords", torch::zeros({0, 5, 2})}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "empty.h5").string() + " --model " + model),
                       "empty");
  write_dataset(dir / "small.h5",
                Dataset{"tsp", {}, Instances({{"coords", torch::rand({2, 2, 2})}})});
  expect_clean_failure(eie("solve --dataset " + (dir / "small.h5").string() + " --model " + model),
                       "at least 3");
}

TEST(Cli, BadFlagsAndValues) {
  const auto dir = test::scratch_dir("cli-flags");
  const auto out = (dir / "d.h5").string();
  expect_clean_failure(eie("gen --n 10 --count 5 --colour blue --out " + out), "colour");
  expect_clean_failure(eie("gen --n 2 --count 5 --out " + out), "n must be at least 3");
  expect_clean_failure(eie("gen --n 10 --count 0 --out " + out), "--count must be >= 1");
  expect_clean_failure(eie("gen --n 10 --count 5 --domain sphere --out " + out), "sphere");
  expect_clean_failure(eie("gen --n 10 --count 5 --out " + (dir / "missing/d.h5").string()),
                       "does not exist");
  expect_clean_failure(eie("gen --n ten --out " + out), "ten");
  expect_clean_failure(eie("train --n 10 --lr -1 --out " + (dir / "run").string()), "--lr");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_NE(eie("frobnicate").exit_code, 0);
}

TEST(Cli, BadMultiStartOptions) {
  const auto dir = test::scratch_dir("cli-multistart");
  const auto run = (dir / "run").string();
  const std::string train = "train --n 10 --epochs 1 --steps 1 --batch 4 --val-size 4 --out " + run;
  expect_clean_failure(eie(train + " --baseline multistart --starts 0"), "--starts");
  expect_clean_failure(eie(train + " --baseline multistart --starts 11"), "--starts 11");
  expect_clean_failure(eie(train + " --baseline multistart --augment 4"), "--augment 4");
  expect_clean_failure(
      eie("train --problem bpp3d --n 10 --epochs 1 --steps 1 --batch 2 --baseline multistart "
          "--augment 8 --out " + run),
      "no 8 symmetries");
  expect_clean_failure(eie(train + " --baseline greedy"), "--baseline");
  expect_clean_failure(eie(train + " --baseline multistart --baseline-eval-size 10"),
                       "--baseline-eval-size");
  expect_clean_failure(eie(train + " --baseline multistart --paper-lr"), "--paper-lr");
  expect_clean_failure(eie(train + " --starts 5"), "need --baseline multistart");
  expect_clean_failure(eie(train + " --learn-first"), "need --baseline multistart");
  expect_clean_failure(eie(train + " --baseline multistart --teacher nn"), "--teacher");
  // A size curriculum: a range of sizes that can hold every start, no imitation.
  expect_clean_failure(eie(train + " --sizes 20-5"), "--sizes '20-5': expected MIN-MAX");
  expect_clean_failure(eie(train + " --sizes 2-20"), "3 <= MIN");
  expect_clean_failure(eie(train + " --sizes 50"), "--sizes '50'");
  expect_clean_failure(eie(train + " --baseline multistart --sizes 5-20 --starts 8"),
                       "--starts 8: expected 1..5");
  expect_clean_failure(eie(train + " --sizes 5-20 --teacher nn"), "--sizes: no --teacher");
  EXPECT_FALSE(std::filesystem::exists(run));
  const auto tsp = std::string(EIE_SOURCE_DIR) + "/data/instances/kroA100.tsp";
  expect_clean_failure(eie("solve " + tsp + " --decode multistart:0"), "1 <= K <= 100000");
  expect_clean_failure(eie("solve " + tsp + " --decode sample:99999999999"), "1 <= K <= 100000");
}

TEST(Cli, TrainsOnASizeCurriculumWithBetasThatGrowWithN) {
  const auto dir = test::scratch_dir("cli-sizes");
  const auto run = dir / "run";
  const auto trained =
      eie("train --n 8 --sizes 6-12 --bias-init 1@pointer --bias-learn --bias-growth sqrtn "
          "--baseline multistart --epochs 2 --steps 2 --batch 8 --val-size 8 --embed-dim 16 "
          "--heads 2 --layers 1 --ff-hidden 16 --threads 1 --out " +
          run.string());
  ASSERT_EQ(trained.exit_code, 0) << trained.stderr;
  EXPECT_EQ(network_options_of(run / "model.h5").encoder.trained_bias.growth, "sqrtn");
  const auto log = slurp(run / "log.csv");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 3) << log;  // header and two epochs
}

// Each run kept for GPU bursts (results/models/gpu/RUN: `flags`, and `first` for its first
// burst alone) starts and resumes as experiments/gpu_train.sh runs it, here on the CPU for
// a step: a flag the binary refuses shows here, not in the minutes of a borrowed GPU.
TEST(Cli, EveryGpuRunStartsAndResumesFromItsFlags) {
  const std::filesystem::path source(EIE_SOURCE_DIR);
  // The file's words as gpu_train.sh splits them, paths in the tree made absolute.
  const auto words_of = [&](const std::filesystem::path& file) {
    std::istringstream words(slurp(file));
    std::string args;
    for (std::string word; words >> word;) {
      const bool in_tree = word[0] != '-' && std::filesystem::exists(source / word);
      args += ' ' + (in_tree ? (source / word).string() : word);
    }
    return args;
  };
  const std::string tiny = " --steps 1 --batch 2 --starts 4 --val-size 4 --out ";
  int runs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source / "results/models/gpu")) {
    const auto& kept = entry.path();
    if (!std::filesystem::exists(kept / "flags")) continue;
    ++runs;
    const auto out = test::scratch_dir("gpu-runs") / kept.filename();
    const auto flags = words_of(kept / "flags");
    const auto first =
        eie("train" + flags + words_of(kept / "first") + " --epochs 1" + tiny + out.string());
    ASSERT_EQ(first.exit_code, 0) << kept << ": " << first.stderr;
    const auto next = eie("train" + flags + " --resume --epochs 2" + tiny + out.string());
    ASSERT_EQ(next.exit_code, 0) << kept << ": " << next.stderr;
    const auto log = slurp(out / "log.csv");
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 3) << kept << ": " << log;
  }
  EXPECT_GE(runs, 1) << "no run under results/models/gpu";
}

TEST(Cli, BadScalePolicies) {
  const auto dir = test::scratch_dir("cli-scales");
  const auto model = model_file(dir, "tsp", "tsp").string();  // trained length N = 20, d = 16
  const auto data = (dir / "d.h5").string();
  ASSERT_EQ(eie("gen --n 30 --count 2 --out " + data).exit_code, 0);
  expect_clean_failure(eie("solve --dataset " + data + " --model " + model + " --scale cubic"),
                       "unknown scale policy 'cubic'");
  const auto scale_file = std::string(EIE_SOURCE_DIR) + "/results/scales/d16-N100-N1600.h5";
  expect_clean_failure(
      eie("solve --dataset " + data + " --model " + model + " --scale eie:" + scale_file),
      "made for d = 16, N = 100; the model has d = 16, N = 20");
  expect_clean_failure(
      eie("solve --dataset " + data + " --model " + model + " --scale-at pointer --scale sqrt"),
      "pointer");
  expect_clean_failure(eie("fit-scale --train-n 100 --max-n 100 --out " + (dir / "s.h5").string()),
                       "--max-n must be >= 101");
  expect_clean_failure(eie("fit-scale --out " + (dir / "s.txt").string()), "must end in .h5");
  expect_clean_failure(
      eie("bench " + std::string(EIE_TEST_DATA) + "/broken/malformed.toml --out " + dir.string()),
      "malformed.toml:3");
  EXPECT_FALSE(std::filesystem::exists(dir / "s.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.md"));
}

// Calibrations are kept per user, per model and setting: a second size between known
// grid sizes measures nothing; a corrupt or foreign entry is measured again with a note;
// a named cache folder that cannot be written is one line, the default's a note.
TEST(Cli, CalibrationsAreCachedAndBadCacheEntriesAreNotTrusted) {
  const auto dir = test::scratch_dir("cli-calibration-cache");
  const auto model = model_file(dir, "tsp", "tsp").string();  // trained at 20: grid 28, 40
  for (const int n : {30, 35}) {
    ASSERT_EQ(eie("gen --n " + std::to_string(n) + " --count 2 --out " +
                  (dir / ("d" + std::to_string(n) + ".h5")).string())
                  .exit_code,
              0);
  }
  const auto cache = dir / "cache";
  const auto solve = [&](int n, const std::string& model_path, const std::string& more,
                         const std::string& environment = "") {
    return eie("solve --dataset " + (dir / ("d" + std::to_string(n) + ".h5")).string() +
                   " --model " + model_path + " --bias entropy " + more,
               environment);
  };
  const auto with_cache = " --calibration-cache " + cache.string();
  const auto first = solve(30, model, with_cache);
  ASSERT_EQ(first.exit_code, 0) << first.stderr;
  EXPECT_NE(first.stderr.find("calibrating attention biases at n = 28"), std::string::npos);
  EXPECT_NE(first.stderr.find("at n = 40"), std::string::npos);
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::directory_iterator(cache)) entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  const auto again = solve(35, model, with_cache);
  ASSERT_EQ(again.exit_code, 0) << again.stderr;
  EXPECT_EQ(again.stderr.find("calibrating"), std::string::npos) << again.stderr;

  std::ofstream(entries[0]) << "n,layer,beta\n28,0,oops\n";
  const auto corrupt = solve(35, model, with_cache);
  ASSERT_EQ(corrupt.exit_code, 0) << corrupt.stderr;
  EXPECT_NE(corrupt.stderr.find("note: calibration cache entry ignored"), std::string::npos);
  EXPECT_NE(corrupt.stderr.find("calibrating"), std::string::npos);
  const auto measured = slurp(entries[0]);
  EXPECT_NE(measured.find("40,pointer,"), std::string::npos);  // written again, whole

  // Another model's entry under this model's name: its stamp gives it away.
  const auto other = model_file(test::scratch_dir("cli-calibration-other"), "tsp", "tsp").string();
  ASSERT_EQ(solve(35, other, with_cache).exit_code, 0);
  for (const auto& e : std::filesystem::directory_iterator(cache)) {
    if (e.path() != entries[0]) std::ofstream(e.path()) << measured;
  }
  const auto foreign = solve(35, other, with_cache);
  ASSERT_EQ(foreign.exit_code, 0) << foreign.stderr;
  EXPECT_NE(foreign.stderr.find("calibrated on another model"), std::string::npos);
  EXPECT_NE(foreign.stderr.find("calibrating"), std::string::npos);

  // A named folder that cannot be written: one line, before anything is measured or
  // written; `none` keeps nothing; the default folder's trouble is a note.
  std::ofstream(dir / "plain-file") << "x";
  expect_clean_failure(
      solve(30, model, "--calibration-cache " + (dir / "plain-file" / "sub").string()),
      "--calibration-cache");
  const auto none = solve(30, model, "--calibration-cache none");
  EXPECT_EQ(none.exit_code, 0) << none.stderr;
  EXPECT_NE(none.stderr.find("calibrating"), std::string::npos);
  const auto unwritable_default =
      solve(30, model, "", "EIE_CACHE_DIR=" + (dir / "plain-file" / "sub").string());
  EXPECT_EQ(unwritable_default.exit_code, 0) << unwritable_default.stderr;
  EXPECT_NE(unwritable_default.stderr.find("note: calibrations are not kept"), std::string::npos);
  expect_clean_failure(solve(30, model, "--calibration-cache ''"), "empty folder name");
}

// results/models/calibrations holds tables for the shipped models at their default
// settings; a model shipped without its tables would be measured again on a user's first
// solves (minutes at n = 1600). An empty cache folder stays empty and nothing is measured
// at a grid size.
TEST(Cli, ShippedModelsMeasureNothingWhereTheirShippedTablesHold) {
  const auto dir = test::scratch_dir("cli-shipped-calibrations");
  const auto cache = dir / "cache";
  std::filesystem::create_directories(cache);
  const std::vector<std::pair<std::string, std::vector<std::string>>> defaults = {
      {"tsp", {"--bias entropy", "--scale calibrated"}},
      {"cvrp", {"--bias entropy", "--scale calibrated"}},
      {"bpp3d", {"--scale calibrated"}}};
  for (const auto& [problem, calibrations] : defaults) {
    const auto data = (dir / (problem + ".h5")).string();
    ASSERT_EQ(
        eie("gen --problem " + problem + " --n 141 --count 1 --seed 5 --out " + data).exit_code, 0);
    for (const auto& flags : calibrations) {
      const auto run =
          eie("solve --dataset " + data + " " + flags, "EIE_CACHE_DIR=" + cache.string());
      ASSERT_EQ(run.exit_code, 0) << problem << " " << flags << ": " << run.stderr;
      EXPECT_EQ(run.stderr.find("calibrat"), std::string::npos)
          << problem << " " << flags << ": " << run.stderr;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(cache));
}

TEST(Cli, DistanceBiasFlags) {
  const auto dir = test::scratch_dir("cli-bias");
  const auto model = model_file(dir, "tsp", "tsp").string();  // no trained betas
  const auto data = (dir / "d.h5").string();
  ASSERT_EQ(eie("gen --n 30 --count 2 --out " + data).exit_code, 0);
  const auto solve = "solve --dataset " + data + " --model " + model;
  expect_clean_failure(eie(solve + " --bias fancy"), "unknown bias policy 'fancy'");
  expect_clean_failure(eie(solve + " --bias logn:-2"), "beta must be finite and >= 0");
  expect_clean_failure(eie(solve + " --bias fixed"), "needs a beta (fixed:BETA)");
  const auto biased = eie(solve + " --bias logn:2 --scale infoscale --window 10");
  EXPECT_EQ(biased.exit_code, 0) << biased.stderr;
  const auto table = (dir / "betas.csv").string();
  const auto entropy = eie(solve + " --bias entropy:" + table + " --scale calibrated");
  EXPECT_EQ(entropy.exit_code, 0) << entropy.stderr;
  // Measured at the grid sizes around 30 (28 and 40 for a model trained at 20).
  EXPECT_NE(slurp(table).find("28,pointer,"), std::string::npos);
  EXPECT_NE(slurp(table).find("40,pointer,"), std::string::npos);
  // A cached table belongs to the model and the setting it was measured on.
  const auto other = model_file(test::scratch_dir("cli-bias-other"), "tsp", "tsp").string();
  const auto with_other = "solve --dataset " + data + " --model " + other;
  const auto plain_table = (dir / "plain-betas.csv").string();
  ASSERT_EQ(eie(solve + " --bias entropy:" + plain_table).exit_code, 0);
  expect_clean_failure(eie(with_other + " --bias entropy:" + plain_table),
                       "calibrated on another model");
  expect_clean_failure(eie(solve + " --bias entropy:" + table),
                       "calibrated under another attention setting ('scale calibrated, window "
                       "none, bias@encoder,glimpse,pointer'; this one is 'scale as trained");
  const auto scales = (dir / "scales.csv").string();
  ASSERT_EQ(eie(solve + " --scale calibrated:" + scales).exit_code, 0);
  expect_clean_failure(eie(with_other + " --scale calibrated:" + scales),
                       "calibrated on another model");
  std::ofstream(dir / "unstamped.csv") << "n,layer,lambda\n30,0,0.3\n30,glimpse,0.3\n";
  expect_clean_failure(eie(solve + " --scale calibrated:" + (dir / "unstamped.csv").string()),
                       "without the model it was measured on");
  // Packing has no positions; training refuses the same, and a lone --bias-learn.
  const auto bpp = dir / "small.bpp";
  std::ofstream(bpp) << "60 50 2\n30 50 10\n50 30 10\n";
  expect_clean_failure(eie("solve " + bpp.string() + " --model " +
                           model_file(dir, "bpp3d", "bpp3d").string() + " --bias fixed:1"),
                       "--bias needs node positions");
  const auto out = (dir / "run").string();
  expect_clean_failure(eie("train --problem bpp3d --bias-init 1 --out " + out),
                       "--bias-init needs node positions");
  expect_clean_failure(eie("train --bias-learn --out " + out), "--bias-learn needs --bias-init");
  expect_clean_failure(eie("train --bias-growth sqrtn --out " + out),
                       "--bias-growth needs --bias-init");
  expect_clean_failure(eie("train --bias-init 1 --bias-growth cubic --out " + out),
                       "--bias-growth 'cubic': expected fixed, logn or sqrtn");
  expect_clean_failure(eie("train --bias-init -1 --out " + out), "--bias-init '-1': expected");
  expect_clean_failure(eie("train --bias-init 2@decoder --out " + out),
                       "--bias-init '2@decoder': expected");
  expect_clean_failure(eie("train --bias-lr 0.01 --out " + out),
                       "--bias-lr: the network has no learned distance betas");
  EXPECT_FALSE(std::filesystem::exists(out));
}

// `eie --version` names the BLAS kernels, and OPENBLAS_CORETYPE, where the user sets
// it, chooses them (eie replaces only OpenBLAS's own fallback).
TEST(Cli, VersionNamesTheBlasKernelsWhichOpenblasCoretypeChooses) {
  const auto plain = eie("--version");
  ASSERT_EQ(plain.exit_code, 0) << plain.stderr;
  if (plain.stdout.find("OpenBLAS") == std::string::npos) {
    GTEST_SKIP() << "the BLAS loaded is not OpenBLAS: " << plain.stdout;
  }
  // The oldest x86-64 kernels: every CPU runs them.
  const auto chosen = eie("--version", "OPENBLAS_CORETYPE=Prescott");
  EXPECT_NE(chosen.stdout.find("OpenBLAS, Prescott kernels\n"), std::string::npos) << chosen.stdout;
}

TEST(Cli, GenThenSolveDatasetAsJson) {
  const auto dir = test::scratch_dir("cli-json");
  const auto data = (dir / "d.h5").string();
  ASSERT_EQ(eie("gen --n 12 --count 6 --seed 4 --out " + data).exit_code, 0);
  const auto run = eie("solve --dataset " + data + " --method nn --improve 2opt --json");
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_NE(run.stdout.find("\"mean_cost\""), std::string::npos) << run.stdout;
  EXPECT_NE(run.stdout.find("\"count\":6"), std::string::npos) << run.stdout;
}

TEST(Cli, SolveTsplibWritesATourWithThePrintedCostFromShared) {
  EIE_REQUIRE_SHARED();
  const auto dir = test::scratch_dir("cli-tour");
  const auto run =
      eie("solve " + (test::shared_dir() / "instances/kroA100.tsp").string() +
          " --method nn --improve 2opt --optimum 21282 --json --out " + (dir / "k.tour").string());
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_TRUE(std::filesystem::exists(dir / "k.tour"));
  const auto tour_text = slurp(dir / "k.tour");
  const auto cost_at = run.stdout.find("\"cost\":");
  ASSERT_NE(cost_at, std::string::npos);
  const long cost = std::stol(run.stdout.substr(cost_at + 7));
  EXPECT_NE(tour_text.find("Length " + std::to_string(cost)), std::string::npos) << tour_text;
  EXPECT_GE(cost, 21282);
  EXPECT_LT(cost, 21282 * 1.08);
}

// An instance file with no flags gets the default time limit: rounds of the policy and
// its local search, never worse than one greedy pass, the tour written matching the cost
// printed; a dataset stays one pass; bad limits are one line.
TEST(Cli, SolveAFileWithinItsDefaultTimeLimit) {
  const auto dir = test::scratch_dir("cli-time-limit");
  const auto tsp = std::string(EIE_SOURCE_DIR) + "/data/instances/kroA100.tsp";
  const auto cost_of = [](const std::string& json) {
    return std::stod(json.substr(json.find("\"cost\":") + 7));
  };
  const auto anytime = eie("solve " + tsp + " --json --out " + (dir / "k.tour").string());
  ASSERT_EQ(anytime.exit_code, 0) << anytime.stderr;
  EXPECT_NE(anytime.stdout.find("\"rounds\":"), std::string::npos) << anytime.stdout;
  EXPECT_NE(anytime.stdout.find("\"best_from\":\"round "), std::string::npos) << anytime.stdout;
  const auto seconds = std::stod(anytime.stdout.substr(anytime.stdout.find("\"seconds\":") + 10));
  EXPECT_LT(seconds, 2.0 + 3.0);  // 2 s at n = 100, and no round started past it by much
  const auto greedy = eie("solve " + tsp + " --json --decode greedy");
  ASSERT_EQ(greedy.exit_code, 0) << greedy.stderr;
  EXPECT_EQ(greedy.stdout.find("\"rounds\""), std::string::npos) << greedy.stdout;
  EXPECT_LE(cost_of(anytime.stdout), cost_of(greedy.stdout));
  EXPECT_NE(
      slurp(dir / "k.tour").find("Length " + std::to_string(std::lround(cost_of(anytime.stdout)))),
      std::string::npos);
  const auto text = eie("solve " + tsp + " --time-limit 0.5");
  ASSERT_EQ(text.exit_code, 0) << text.stderr;
  EXPECT_NE(text.stdout.find(" rounds, "), std::string::npos) << text.stdout;
  for (const auto* bad : {"-1", "1e12", "86401"}) {
    expect_clean_failure(
        eie("solve " + tsp + " --time-limit=" + bad + " --out " + (dir / "bad.tour").string()),
        "--time-limit must be 0 to 86400 seconds");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.tour"));
}

}  // namespace
}  // namespace eie
