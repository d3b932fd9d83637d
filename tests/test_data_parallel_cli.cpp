// `eie train` as ranks of a job: a local job through --nproc, refusals of bad job
// settings before anything is written, and a job that loses a rank (kill -9).
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "src/parallel/gloo_collective.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

extern char** environ;

namespace eie {
namespace {

using test::eie;
using test::expect_clean_failure;

const std::string kTiny =
    "train --problem tsp --n 10 --embed-dim 16 --heads 2 --ff-hidden 32 --layers 1 --steps 2 "
    "--val-size 20 --baseline-eval-size 20 --seed 3";

TEST(DataParallelCli, LocalJobTrainsAndOnlyRankZeroWrites) {
  const auto dir = test::scratch_dir("dp-local");
  const auto out = dir / "run";
  const auto run = eie(kTiny + " --batch 16 --epochs 2 --nproc 2 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_NE(run.stdout.find("[rank 0] trained model: "), std::string::npos) << run.stdout;
  EXPECT_EQ(run.stdout.find("[rank 1] trained model"), std::string::npos) << run.stdout;
  const auto log = test::slurp(out / "log.csv");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 3) << log;  // header and two epochs
  // The job resumes from its checkpoint, and a single process can continue it too.
  const auto more = eie(kTiny + " --batch 16 --epochs 3 --nproc 2 --resume --out " + out.string());
  ASSERT_EQ(more.exit_code, 0) << more.stderr;
  const auto alone = eie(kTiny + " --batch 16 --epochs 4 --resume --out " + out.string());
  ASSERT_EQ(alone.exit_code, 0) << alone.stderr;
  const auto longer = test::slurp(out / "log.csv");
  EXPECT_EQ(std::count(longer.begin(), longer.end(), '\n'), 5) << longer;
}

TEST(DataParallelCli, BadJobSettingsAreOneLineAndWriteNothing) {
  const auto dir = test::scratch_dir("dp-bad");
  const auto out = (dir / "run").string();
  const std::string base = kTiny + " --batch 16 --epochs 1 --job-timeout 3 --out " + out;
  expect_clean_failure(eie(base + " --world-size 2 --rank 2"), "--rank (or RANK) 2: expected 0..1");
  expect_clean_failure(eie(base + " --world-size 2 --rank -1"), "expected 0..1");
  expect_clean_failure(eie(base + " --world-size two --rank 0"), "expected an integer");
  expect_clean_failure(eie(base + " --world-size 2"), "--rank (or RANK) is required");
  expect_clean_failure(eie(base + " --world-size 3 --rank 0"), "not divisible by the world size 3");
  expect_clean_failure(eie(base + " --nproc 3"), "not divisible by the world size 3");
  expect_clean_failure(eie(base + " --nproc 2 --rank 0 --world-size 2"), "--nproc starts its own");
  expect_clean_failure(eie(base + " --world-size 2 --rank 0 --master-port 70000"),
                       "expected 1..65535");
  // Nobody listens at the master's port.
  const int port = free_loopback_port();
  const std::string job = " --master-port " + std::to_string(port);
  expect_clean_failure(eie(base + job + " --world-size 2 --rank 1"), "cannot reach the master");
  // The master's port is taken.
  const int taken = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  ASSERT_EQ(::bind(taken, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(taken, 1), 0);
  expect_clean_failure(eie(base + job + " --world-size 2 --rank 0"), "cannot listen on");
  ::close(taken);
  // Two ranks that disagree on the world size: both stop, naming it.
  auto master =
      std::async(std::launch::async, [&] { return eie(base + job + " --world-size 2 --rank 0"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto other = eie(base + job + " --world-size 4 --rank 1");
  expect_clean_failure(other, "rank 1 has WORLD_SIZE 4, rank 0 has 2");
  expect_clean_failure(master.get(), "rank 1 has WORLD_SIZE 4, rank 0 has 2");
  EXPECT_FALSE(std::filesystem::exists(out));
}

// Starts eie with `args` (split at spaces), its stderr into `err`.
pid_t start(const std::string& args, const std::filesystem::path& err) {
  std::vector<std::string> words{EIE_BINARY};
  std::stringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Waits (at most a minute) for a job's first checkpoint in `out`.
void wait_for_first_checkpoint(const std::filesystem::path& out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(out / "checkpoint.h5") &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// Whether process `pid` exits with a non-zero code within 30 s (killed otherwise).
bool fails_within_30_seconds(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return WIFEXITED(status) && WEXITSTATUS(status) != 0;
}

TEST(DataParallelCli, LosingARankStopsTheOthersWithOneLineNamingIt) {
  const auto dir = test::scratch_dir("dp-kill");
  const auto out = dir / "run";
  const std::string job = kTiny + " --batch 16 --epochs 100000 --threads 1 --job-timeout 60 " +
                          "--master-port " + std::to_string(free_loopback_port()) +
                          " --world-size 2 --out " + out.string();
  const pid_t rank0 = start(job + " --rank 0", dir / "rank0.err");
  const pid_t rank1 = start(job + " --rank 1", dir / "rank1.err");
  wait_for_first_checkpoint(out);
  ASSERT_TRUE(std::filesystem::exists(out / "checkpoint.h5"));
  ::kill(rank1, SIGKILL);
  ::waitpid(rank1, nullptr, 0);
  EXPECT_TRUE(fails_within_30_seconds(rank0)) << "rank 0, after losing rank 1";
  const auto err = test::slurp(dir / "rank0.err");
  const auto last = err.substr(err.rfind('\n', err.size() - 2) + 1);
  EXPECT_NE(last.find("error: rank 0:"), std::string::npos) << err;
  EXPECT_NE(last.find("lost rank 1"), std::string::npos) << err;
  // The last checkpoint is whole: a single process continues from it.
  const auto resumed =
      eie(kTiny + " --batch 16 --epochs 100000 --cpu-budget 0.1 --resume --out " + out.string());
  EXPECT_EQ(resumed.exit_code, 0) << resumed.stderr;
}

// The child of `parent` whose environment has RANK=`rank` (-1 if none).
pid_t rank_child(pid_t parent, int rank) {
  std::ifstream children("/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) +
                         "/children");
  for (pid_t child; children >> child;) {
    const auto environment = test::slurp("/proc/" + std::to_string(child) + "/environ");
    if (environment.find(std::string("RANK=") + std::to_string(rank) + '\0') != std::string::npos) {
      return child;
    }
  }
  return -1;
}

TEST(DataParallelCli, TheLauncherEndsTheJobWhenARankDies) {
  const auto dir = test::scratch_dir("dp-launcher");
  const auto out = dir / "run";
  const pid_t launcher =
      start(kTiny + " --batch 16 --epochs 100000 --threads 1 --nproc 2 --out " + out.string(),
            dir / "launcher.err");
  wait_for_first_checkpoint(out);
  const pid_t rank1 = rank_child(launcher, 1), rank0 = rank_child(launcher, 0);
  ASSERT_GT(rank1, 0);
  ASSERT_GT(rank0, 0);
  ::kill(rank1, SIGKILL);
  EXPECT_TRUE(fails_within_30_seconds(launcher)) << "the launcher, after losing rank 1";
  EXPECT_NE(::kill(rank0, 0), 0) << "rank 0 outlived its launcher";
  const auto err = test::slurp(dir / "launcher.err");
  EXPECT_NE(err.find("eie train: error: rank 1 failed (killed by signal 9)"), std::string::npos)
      << err;
}

}  // namespace
}  // namespace eie
