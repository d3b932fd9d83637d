// Pictures of solutions through the real binary: every problem's picture is a PNG
// of the size asked for, drawing one changes nothing solve writes, a solution of
// another instance is refused before anything is drawn, and without gnuplot both
// commands fail with one line and leave no file.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::eie;
using test::expect_clean_failure;
using test::slurp;

// Width and height of a PNG file (its IHDR chunk); {0, 0} when it is not a PNG.
std::pair<int64_t, int64_t> png_size(const std::filesystem::path& path) {
  const auto bytes = slurp(path);
  if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0) return {0, 0};
  const auto be32 = [&](size_t at) {
    int64_t value = 0;
    for (size_t i = 0; i < 4; ++i) value = value * 256 + static_cast<unsigned char>(bytes[at + i]);
    return value;
  };
  return {be32(16), be32(20)};
}

struct Files {
  std::filesystem::path instance;
  std::string method;     // a classical method: fast and independent of any model
  std::string solution;   // the solution file's name
};

// A small instance of every problem.
std::vector<Files> small_instances(const std::filesystem::path& dir) {
  std::ofstream(dir / "five.tsp") << "NAME: five\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                                     "NODE_COORD_SECTION\n1 0 0\n2 10 0\n3 10 10\n4 0 10\n5 5 12\nEOF\n";
  std::ofstream(dir / "four.vrp") << "NAME: four\nTYPE: CVRP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                                     "CAPACITY: 10\nNODE_COORD_SECTION\n1 50 50\n2 0 0\n3 100 0\n"
                                     "4 100 100\n5 0 100\nDEMAND_SECTION\n1 0\n2 4\n3 5\n4 6\n5 3\n"
                                     "DEPOT_SECTION\n1\n-1\nEOF\n";
  std::ofstream(dir / "three.bpp") << "60 50 3\n30 50 10\n50 30 10\n20 20 20\n";
  return {{dir / "five.tsp", "nn", "five.tour"},
          {dir / "four.vrp", "savings", "four.sol"},
          {dir / "three.bpp", "heightmap", "three.txt"}};
}

TEST(Pictures, EveryProblemDrawsItsSolutionAtTheAskedSizeAndChangesNothing) {
  const auto dir = test::scratch_dir("pictures");
  for (const auto& f : small_instances(dir)) {
    const auto name = f.instance.stem().string();
    const auto plain = eie("solve " + f.instance.string() + " --method " + f.method + " --out " +
                           (dir / ("plain-" + f.solution)).string());
    ASSERT_EQ(plain.exit_code, 0) << plain.stderr;
    const auto drawn = eie("solve " + f.instance.string() + " --method " + f.method + " --out " +
                           (dir / f.solution).string() + " --plot " +
                           (dir / (name + ".png")).string() + " --plot-size 320x240");
    ASSERT_EQ(drawn.exit_code, 0) << drawn.stderr;
    EXPECT_EQ(png_size(dir / (name + ".png")), (std::pair<int64_t, int64_t>{320, 240})) << name;
    EXPECT_EQ(slurp(dir / f.solution), slurp(dir / ("plain-" + f.solution))) << name;
    // The printed measures are the same; only the time may differ.
    EXPECT_EQ(drawn.stdout.substr(0, drawn.stdout.find("time")),
              plain.stdout.substr(0, plain.stdout.find("time")));
    // eie plot draws the solution file written above.
    const auto plotted = eie("plot " + f.instance.string() + " " + (dir / f.solution).string() +
                             " --out " + (dir / (name + "-file.png")).string() +
                             " --plot-size 400x300");
    ASSERT_EQ(plotted.exit_code, 0) << plotted.stderr;
    EXPECT_EQ(png_size(dir / (name + "-file.png")), (std::pair<int64_t, int64_t>{400, 300})) << name;
  }
}

TEST(Pictures, ASolutionOfAnotherInstanceIsRefusedAndNothingIsDrawn) {
  const auto dir = test::scratch_dir("pictures-mismatch");
  const auto files = small_instances(dir);
  std::ofstream(dir / "six.tour") << "NAME: six\nTYPE: TOUR\nDIMENSION: 6\nTOUR_SECTION\n1\n2\n3\n4\n5\n6\n-1\nEOF\n";
  std::ofstream(dir / "seven.sol") << "Route #1: 1 2 7\nRoute #2: 3 4\nCost 100\n";
  std::ofstream(dir / "wide.txt") << "90 50 20\n0 0 0 0 30 50 10\n1 30 0 0 50 30 10\n2 0 0 10 20 20 10\n";
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {"six.tour", "not a tour of five"}, {"seven.sol", "not a solution of four"},
      {"wide.txt", "90x50 base"}};
  for (size_t i = 0; i < files.size(); ++i) {
    const auto out = dir / ("wrong" + std::to_string(i) + ".png");
    expect_clean_failure(eie("plot " + files[i].instance.string() + " " +
                             (dir / wrong[i].first).string() + " --out " + out.string()),
                         wrong[i].second);
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  ASSERT_EQ(eie("gen --n 10 --count 2 --out " + (dir / "d.h5").string()).exit_code, 0);
  expect_clean_failure(eie("solve --dataset " + (dir / "d.h5").string() + " --method nn --plot " +
                           (dir / "d.png").string()),
                       "--plot applies to instance files only");
  EXPECT_FALSE(std::filesystem::exists(dir / "d.png"));
  expect_clean_failure(eie("plot " + files[0].instance.string() + " --out " +
                           (dir / "half.png").string()),
                       "give an INSTANCE file and its SOLUTION file");
}

// Beside its tables, a bench draws them; a training run redraws its curve every epoch.
TEST(Pictures, BenchTablesAndTrainingCurves) {
  const auto dir = test::scratch_dir("pictures-bench-train");
  std::ofstream(dir / "tiny.toml") << "sizes = [10, 20]\ninstances = 3\nmethods = [\"nn\", \"farthest\"]\n";
  const auto bench = eie("bench " + (dir / "tiny.toml").string() + " --out " + dir.string());
  ASSERT_EQ(bench.exit_code, 0) << bench.stderr;
  EXPECT_EQ(png_size(dir / "tiny.png"), (std::pair<int64_t, int64_t>{1400, 600}));
  // A table with a bound row (packing) draws each row's gap to it.
  std::ofstream(dir / "packed.toml") << "problem = \"bpp3d\"\nbases = [\"60x50\", \"80x60\"]\n"
                                        "sizes = [8, 12]\ninstances = 2\nmethods = [\"heightmap\"]\n"
                                        "bound = true\n";
  const auto packed = eie("bench " + (dir / "packed.toml").string() + " --out " + dir.string());
  ASSERT_EQ(packed.exit_code, 0) << packed.stderr;
  EXPECT_EQ(packed.stderr.find("warning"), std::string::npos) << packed.stderr;
  EXPECT_EQ(png_size(dir / "packed.png"), (std::pair<int64_t, int64_t>{1400, 600}));
  const auto run = dir / "run";
  const auto train = eie("train --n 8 --epochs 2 --steps 2 --batch 8 --val-size 8 "
                         "--baseline-eval-size 8 --embed-dim 16 --heads 2 --ff-hidden 16 --out " +
                         run.string());
  ASSERT_EQ(train.exit_code, 0) << train.stderr;
  EXPECT_EQ(png_size(run / "curve.png"), (std::pair<int64_t, int64_t>{1200, 480}));
}

TEST(Pictures, WithoutGnuplotOneLineAndNoFile) {
  const auto dir = test::scratch_dir("pictures-no-gnuplot");
  const auto files = small_instances(dir);
  ASSERT_EQ(eie("solve " + files[0].instance.string() + " --method nn --out " +
                (dir / "five.tour").string())
                .exit_code,
            0);
  std::ofstream(dir / "tiny.toml") << "sizes = [10]\ninstances = 2\nmethods = [\"nn\"]\n";
  const auto without_gnuplot = [](const std::string& args) {
    return eie(args, "PATH=/nonexistent");  // the shell eie starts finds no gnuplot
  };
  const auto solved = without_gnuplot("solve " + files[0].instance.string() +
                                      " --method nn --plot " + (dir / "a.png").string());
  const auto plotted =
      without_gnuplot("plot " + files[0].instance.string() + " " + (dir / "five.tour").string() +
                      " --out " + (dir / "b.png").string());
  const auto bench =
      without_gnuplot("bench " + (dir / "tiny.toml").string() + " --out " + dir.string());
  const auto train = without_gnuplot(
      "train --n 8 --epochs 2 --steps 1 --batch 8 --val-size 8 "
      "--baseline-eval-size 8 --embed-dim 16 --heads 2 --ff-hidden 16 --out " +
      (dir / "run").string());
  expect_clean_failure(solved, "gnuplot");
  expect_clean_failure(plotted, "gnuplot");
  EXPECT_FALSE(std::filesystem::exists(dir / "a.png"));
  EXPECT_FALSE(std::filesystem::exists(dir / "b.png"));
  // Tables and training go on: one warning line each, no picture.
  EXPECT_EQ(bench.exit_code, 0) << bench.stderr;
  EXPECT_TRUE(std::filesystem::exists(dir / "tiny.md"));
  EXPECT_FALSE(std::filesystem::exists(dir / "tiny.png"));
  EXPECT_EQ(train.exit_code, 0) << train.stderr;
  EXPECT_TRUE(std::filesystem::exists(dir / "run" / "model.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "run" / "curve.png"));
  for (const auto* out : {&bench.stderr, &train.stderr}) {
    EXPECT_NE(out->find("warning: no"), std::string::npos) << *out;
    const auto first = out->find("warning");
    EXPECT_EQ(out->find("warning", first + 1), std::string::npos) << *out;  // once
  }
}

}  // namespace
}  // namespace eie
