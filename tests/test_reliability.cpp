// Hostile input and a hostile machine: file names that try to run commands, corrupt
// and forged HDF5 files, header counts out of proportion with the data, weights that
// are not finite, a disk that refuses writes, and training killed at any moment.
// Every case: one stderr line, exit != 0, no output file, no stray temporary.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/io/h5_file.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "src/util/atomic_path.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::eie;
using test::expect_clean_failure;

// Files in `dir` whose name marks an unfinished write.
int stray_temporaries(const std::filesystem::path& dir) {
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    count += entry.path().filename().string().find(".tmp-") != std::string::npos;
  }
  return count;
}

// `eie ARGS` where no file can grow beyond `kib` KiB (RLIMIT_FSIZE, as on a full disk:
// writes past it fail, SIGXFSZ ignored so the failure is an error code). stderr goes
// through a pipe, which the limit does not cover.
test::Run eie_on_a_full_disk(const std::string& args, const std::filesystem::path& dir,
                             int kib = 0) {
  const auto err = dir / "stderr";
  const std::string command = "bash -o pipefail -c \"(trap '' XFSZ; ulimit -f " +
                              std::to_string(kib) + "; exec " + std::string(EIE_BINARY) + " " +
                              args + " --threads 1) 2>&1 >/dev/null | cat >" + err.string() + "\"";
  const int status = std::system(command.c_str());
  return {WEXITSTATUS(status), test::slurp(err), ""};
}

std::filesystem::path random_tsp(const std::filesystem::path& dir, int n) {
  const auto path = dir / ("random" + std::to_string(n) + ".tsp");
  std::ofstream file(path);
  file << "NAME : random\nTYPE : TSP\nDIMENSION : " << n
       << "\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n";
  const auto cities = test::random_cities(n, 7);
  for (int i = 0; i < n; ++i) file << i + 1 << ' ' << cities[i].x * 1e4 << ' ' << cities[i].y * 1e4 << '\n';
  file << "EOF\n";
  return path;
}

TEST(Reliability, PlotFileNamesNeverRunCommands) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  const auto dir = test::scratch_dir("reliability-plot");
  const auto model = test::model_file(dir, "tsp", "tsp");
  // gnuplot runs in eie's working directory, the test's: PWNED would appear there.
  const std::filesystem::path pwned = "PWNED";
  std::filesystem::remove(pwned);
  const auto picture = (dir / "p.png'; system 'touch PWNED'; #").string();
  const auto run = eie("entropy --model " + model.string() + " --sizes 10 --instances 2 --out " +
                       (dir / "e.csv").string() + " --plot \"" + picture + "\"");
  EXPECT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_FALSE(std::filesystem::exists(pwned));
  EXPECT_TRUE(std::filesystem::exists(picture));  // under its literal name
  EXPECT_EQ(stray_temporaries(dir), 0);
}

// Outputs that are not plain files: a link is written through (the link stays), a FIFO,
// a character device and the process's own descriptors are written into, never replaced.
TEST(Reliability, OutputsThroughLinksFifosDevicesAndStdout) {
  const auto dir = test::scratch_dir("special-outputs");
  std::ofstream(dir / "real.txt") << "old";
  std::filesystem::create_symlink("real.txt", dir / "link.txt");
  write_file(dir / "link.txt", "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.txt"));
  EXPECT_EQ(test::slurp(dir / "real.txt"), "new");
  std::filesystem::create_symlink(dir / "made.txt", dir / "dangling.txt");
  write_file(dir / "dangling.txt", "made");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "dangling.txt"));
  EXPECT_EQ(test::slurp(dir / "made.txt"), "made");
  EXPECT_EQ(stray_temporaries(dir), 0);

  const auto fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = test::slurp(fifo); });
  write_file(fifo, "through the fifo");
  reader.join();
  EXPECT_EQ(received, "through the fifo");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));

  write_file("/dev/null", "discarded");
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));

  // The CLI: a tour to /dev/stdout lands on stdout (here a file), and the link stays.
  const auto tsp = random_tsp(dir, 12);
  const auto run = eie("solve " + tsp.string() + " --method nn --out /dev/stdout");
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_NE(run.stdout.find("TOUR_SECTION"), std::string::npos) << run.stdout;
  EXPECT_TRUE(std::filesystem::is_symlink("/dev/stdout"));
  // A picture through a link.
  std::filesystem::create_symlink("tour.png", dir / "picture.png");
  const auto plotted =
      eie("solve " + tsp.string() + " --method nn --plot " + (dir / "picture.png").string());
  ASSERT_EQ(plotted.exit_code, 0) << plotted.stderr;
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "picture.png"));
  EXPECT_GT(std::filesystem::file_size(dir / "tour.png"), 100u);
}

TEST(Reliability, NonFiniteWeightsAreRefusedBeforeSolving) {
  const auto dir = test::scratch_dir("reliability-nan");
  for (const std::string problem : {"tsp", "cvrp"}) {
    auto agent = load_agent(test::model_file(dir, problem, problem), make_problem(problem));
    {
      torch::NoGradGuard no_grad;
      agent->network().parameters().front().view(-1)[0] = NAN;
    }
    const auto model = dir / (problem + "-nan.h5");
    save_model(*agent, model);
    const auto data = dir / (problem + ".h5");
    ASSERT_EQ(eie("gen --problem " + problem + " --n 10 --count 2 --out " + data.string()).exit_code, 0);
    expect_clean_failure(eie("solve --dataset " + data.string() + " --model " + model.string()),
                         "NaN or infinite weights");
  }
}

TEST(Reliability, ModelSizesOutOfRangeAreRefusedBeforeAllocating) {
  const auto dir = test::scratch_dir("reliability-sizes");
  auto agent = make_agent(make_problem("tsp"), test::small_network(16, 2, 16, 1), 20);
  auto spec = agent->spec();
  spec["ff_hidden"] = int64_t{2147483647};
  const auto model = dir / "huge.h5";
  h5::Writer writer(model);
  write_spec(writer, spec, "model");
  write_module(writer, "model", agent->network());
  writer.commit();
  const auto data = dir / "tsp.h5";
  ASSERT_EQ(eie("gen --n 10 --count 2 --out " + data.string()).exit_code, 0);
  expect_clean_failure(eie("solve --dataset " + data.string() + " --model " + model.string()),
                       "ff_hidden = 2147483647");
}

// Every 4 KiB block of a dataset zeroed in turn, and bytes flipped: solving either
// works or fails with one line; it never aborts, crashes or hangs.
TEST(Reliability, CorruptDatasetsFailCleanlyOrSolve) {
  const auto dir = test::scratch_dir("reliability-corrupt");
  for (const std::string problem : {"bpp3d", "tsp"}) {
    const auto data = dir / (problem + ".h5");
    ASSERT_EQ(eie("gen --problem " + problem + " --n 10 --count 4 --out " + data.string()).exit_code,
              0);
    std::ifstream in(data, std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), {});
    std::mt19937 rng(5);
    for (size_t trial = 0; trial < original.size() / 4096 + 4; ++trial) {
      auto bytes = original;
      if (trial * 4096 < original.size()) {
        std::fill_n(bytes.begin() + trial * 4096, std::min<size_t>(4096, bytes.size() - trial * 4096), 0);
      } else {
        for (int k = 0; k < 20; ++k) bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
      }
      const auto corrupt = dir / (problem + "-corrupt.h5");
      std::ofstream(corrupt, std::ios::binary) << bytes;
      const auto run = eie("solve --dataset " + corrupt.string() + " --method " +
                           (problem == "tsp" ? "nn" : "heightmap"));
      EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << problem << " trial " << trial;
      if (run.exit_code != 0) {
        EXPECT_EQ(std::count(run.stderr.begin(), run.stderr.end(), '\n'), 1)
            << problem << " trial " << trial << ": " << run.stderr;
      }
    }
  }
}

TEST(Reliability, HeaderCountsAreCheckedAgainstTheData) {
  const auto dir = test::scratch_dir("reliability-headers");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  for (const char* dimension : {"400000000", "2000000000"}) {
    const auto start = std::chrono::steady_clock::now();
    expect_clean_failure(
        eie("solve " + write("big.tsp", std::string("NAME : x\nTYPE : TSP\nDIMENSION : ") + dimension +
                                            "\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 "
                                            "0\n2 1 0\n3 0 1\nEOF\n") +
            " --method nn"),
        "cannot fit in a file of");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  }
  expect_clean_failure(
      eie("solve " +
          write("big.vrp", "NAME : x\nTYPE : CVRP\nDIMENSION : 900000000\nEDGE_WEIGHT_TYPE : "
                           "EUC_2D\nCAPACITY : 10\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n") +
          " --method savings"),
      "cannot fit in a file of");
  expect_clean_failure(eie("solve " + write("big.bpp", "120 100 9000000\n10 10 10\n") +
                           " --method heightmap"),
                       "truncated: expected 9000000 boxes, found 1");
  expect_clean_failure(eie("solve " + write("base.bpp", "100000 100000 1\n10 10 10\n") +
                           " --method heightmap"),
                       "cells");
  expect_clean_failure(
      eie("solve " + write("far.tsp", "NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : "
                                      "EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1e308 1e308\n3 0 "
                                      "1\nEOF\n") +
          " --method nn"),
      "within");
  // A long garbage line is quoted, not echoed whole.
  const auto garbage = eie("solve " + write("garbage.tsp", "NAME : x\nTYPE : TSP\nDIMENSION : " +
                                                               std::string(100000, '7') + "x\n") +
                           " --method nn");
  expect_clean_failure(garbage, "DIMENSION");
  EXPECT_LT(garbage.stderr.size(), 400u);
}

// Whole-instance attention does not scale to 10^4 cities: above 2,000 a policy decodes
// in tiles unless --window says otherwise.
TEST(Reliability, LargeInstancesDecodeInTilesByDefault) {
  const auto dir = test::scratch_dir("reliability-large");
  const auto tsp = random_tsp(dir, 2500).string();
  const auto tour = (dir / "t.tour").string();
  const auto run = eie("solve " + tsp + " --out " + tour);
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_NE(run.stderr.find("decoding in tiles of 100"), std::string::npos) << run.stderr;
  EXPECT_TRUE(std::filesystem::exists(tour));
  const auto whole = eie("solve " + tsp + " --window 0 --method nn");
  EXPECT_EQ(whole.stderr.find("tiles"), std::string::npos) << whole.stderr;
}

TEST(Reliability, BenchNamesStayInsideOut) {
  const auto dir = test::scratch_dir("reliability-bench");
  for (const std::string name : {"../x", "/tmp/x", ".hidden", "a/b"}) {
    std::ofstream(dir / "b.toml") << "name = \"" << name << "\"\nsizes = [10]\ninstances = 2\n"
                                  << "methods = [\"nn\"]\n";
    expect_clean_failure(eie("bench " + (dir / "b.toml").string() + " --out " + (dir / "out").string()),
                         "plain file name");
  }
  std::ofstream(dir / "file") << "not a directory";
  std::ofstream(dir / "b.toml") << "name = \"b\"\nsizes = [10]\ninstances = 2\nmethods = [\"nn\"]\n";
  expect_clean_failure(eie("bench " + (dir / "b.toml").string() + " --out " + (dir / "file").string()),
                       "not a directory");
}

TEST(Reliability, AFullDiskFailsCleanlyLeavingNothing) {
  const auto dir = test::scratch_dir("reliability-full");
  const auto out = dir / "out";
  std::filesystem::create_directories(out);
  const auto tsp = random_tsp(dir, 300).string();
  expect_clean_failure(eie_on_a_full_disk("solve " + tsp + " --method nn --out " +
                                              (out / "t.tour").string(), dir),
                       "File too large");
  std::ofstream(dir / "b.toml") << "name = \"b\"\nsizes = [10]\ninstances = 2\nmethods = [\"nn\"]\n";
  expect_clean_failure(eie_on_a_full_disk("bench " + (dir / "b.toml").string() + " --out " +
                                              out.string(), dir),
                       "failed");
  expect_clean_failure(eie_on_a_full_disk("train --n 8 --epochs 1 --steps 1 --batch 4 --val-size 4 "
                                          "--baseline-eval-size 4 --out " + (out / "run").string(),
                                          dir),
                       "failed");
  EXPECT_EQ(stray_temporaries(out), 0);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(out)) {
    EXPECT_TRUE(entry.is_directory()) << "left " << entry.path();
  }
}

// The disk fills up at the checkpoint (the log row fits): one line and exit code 1, not
// HDF5's messages from its destructors and a crash in its shutdown at exit (HDF5 files
// are built in memory and written out by the same checked write as every other output).
TEST(Reliability, AFullDiskAtTheCheckpointIsOneLineWithoutACrash) {
  const auto dir = test::scratch_dir("reliability-full-checkpoint");
  const auto run = eie_on_a_full_disk(
      "train --n 10 --epochs 1 --steps 1 --batch 4 --val-size 2 --baseline-eval-size 2 "
      "--embed-dim 16 --heads 2 --layers 1 --ff-hidden 16 --out " +
          (dir / "run").string(),
      dir, 64);
  expect_clean_failure(run, "checkpoint.h5: write failed: File too large");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(stray_temporaries(dir / "run"), 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "run" / "checkpoint.h5"));
}

// kill -9 at many moments of a run whose epochs are mostly checkpoint writing; each
// resume continues the log without a gap or a repeated row, and leaves no temporaries.
TEST(Reliability, KilledTrainingResumesWithoutLosingARow) {
  const auto dir = test::scratch_dir("reliability-kill");
  const auto run_dir = dir / "run";
  const int64_t epochs = 400;
  const std::string train = std::string(EIE_BINARY) + " train --n 8 --epochs " +
                            std::to_string(epochs) + " --steps 1 --batch 4 --val-size 4 " +
                            "--baseline-eval-size 4 --embed-dim 16 --heads 2 --ff-hidden 16 "
                            "--layers 1 --threads 1 --out " + run_dir.string();
  std::mt19937 rng(3);
  int resumed_kills = 0;  // kills of runs that had resumed from a checkpoint
  for (int attempt = 0; attempt < 60 && resumed_kills < 5; ++attempt) {
    const bool resume = std::filesystem::exists(run_dir / "checkpoint.h5");
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const std::string command = train + (resume ? " --resume" : "") + " >/dev/null 2>&1";
      execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    bool exited = false;
    const auto running = [&] {
      exited = exited || waitpid(pid, &status, WNOHANG) == pid;
      return !exited;
    };
    // A fresh run is killed only once it has a checkpoint (a slow or loaded machine
    // must not leave nothing to resume); every kill then falls at a random moment.
    for (int waited = 0; !resume && waited < 6000 && running() &&
                         !std::filesystem::exists(run_dir / "checkpoint.h5");
         ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 1000));
    if (running()) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      resumed_kills += resume;
      continue;
    }
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    break;
  }
  EXPECT_GE(resumed_kills, 1);
  const auto finish = std::system((train + " --resume 2>" + (dir / "stderr").string()).c_str());
  ASSERT_EQ(WEXITSTATUS(finish), 0) << test::slurp(dir / "stderr");
  std::ifstream log(run_dir / "log.csv");
  std::string line;
  std::getline(log, line);  // header
  int64_t expected = 0;
  while (std::getline(log, line)) {
    EXPECT_EQ(std::stoll(line.substr(0, line.find(','))), expected) << line;
    ++expected;
  }
  EXPECT_EQ(expected, epochs);
  EXPECT_EQ(stray_temporaries(run_dir), 0);
}

}  // namespace
}  // namespace eie
