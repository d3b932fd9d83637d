#include "src/parallel/launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "src/parallel/gloo_collective.h"

namespace eie {
namespace {

std::string executable() {
  std::array<char, 4096> path{};
  const auto length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) throw std::runtime_error("--nproc: cannot find this executable");
  return {path.data(), static_cast<size_t>(length)};
}

// One stream of one rank: complete lines go out with the rank's prefix.
struct Stream {
  int fd = -1;
  FILE* out = nullptr;
  std::string prefix;
  std::string pending;

  void flush_lines(bool all) {
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
      std::fprintf(out, "%s%.*s\n", prefix.c_str(), static_cast<int>(end - start),
                   pending.data() + start);
    }
    pending.erase(0, start);
    if (all && !pending.empty()) std::fprintf(out, "%s%s\n", prefix.c_str(), pending.c_str());
    if (all) pending.clear();
    std::fflush(out);
  }
};

struct Rank {
  pid_t pid = -1;
  bool running = true;
  int status = 0;
};

pid_t start_rank(const std::string& program, const std::vector<std::string>& arguments,
                 int64_t rank, int64_t ranks, int port, const int (&out)[2], const int (&err)[2]) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  // The child: its streams into the pipes, its place in the job in the environment.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a rank never outlives its launcher
  ::dup2(out[1], 1);
  ::dup2(err[1], 2);
  ::close(out[0]);
  ::close(err[0]);
  ::setenv("RANK", std::to_string(rank).c_str(), 1);
  ::setenv("WORLD_SIZE", std::to_string(ranks).c_str(), 1);
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  std::fprintf(stderr, "cannot run %s\n", program.c_str());
  ::_exit(127);
}

std::string how_it_ended(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exit code " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

int launch_local_ranks(int64_t ranks, const std::vector<std::string>& arguments, int port) {
  if (port == 0) port = free_loopback_port();
  const auto program = executable();
  std::vector<Rank> children(static_cast<size_t>(ranks));
  std::vector<Stream> streams;
  for (int64_t r = 0; r < ranks; ++r) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
      throw std::runtime_error("--nproc: no pipes left");
    children[r].pid = start_rank(program, arguments, r, ranks, port, out, err);
    ::close(out[1]);
    ::close(err[1]);
    const std::string prefix = "[rank " + std::to_string(r) + "] ";
    streams.push_back({out[0], stdout, prefix, ""});
    streams.push_back({err[0], stderr, prefix, ""});
  }
  int64_t failed = -1;  // the first rank that failed
  std::chrono::steady_clock::time_point stopping;
  bool killed = false;
  for (;;) {
    std::vector<pollfd> open;  // the streams still open, and which each is
    std::vector<Stream*> polled;
    for (auto& s : streams) {
      if (s.fd < 0) continue;
      open.push_back({s.fd, POLLIN, 0});
      polled.push_back(&s);
    }
    bool any_running = false;
    for (const auto& c : children) any_running |= c.running;
    if (open.empty() && !any_running) break;
    ::poll(open.data(), open.size(), 200);  // with nothing open, a 200 ms wait
    for (size_t i = 0; i < open.size(); ++i) {
      if (open[i].revents == 0) continue;
      auto& s = *polled[i];
      char buffer[4096];
      const auto n = ::read(s.fd, buffer, sizeof buffer);
      if (n > 0) {
        s.pending.append(buffer, static_cast<size_t>(n));
        s.flush_lines(false);
      } else {
        s.flush_lines(true);
        ::close(s.fd);
        s.fd = -1;
      }
    }
    for (size_t r = 0; r < children.size(); ++r) {
      auto& c = children[r];
      if (!c.running || ::waitpid(c.pid, &c.status, WNOHANG) != c.pid) continue;
      c.running = false;
      const bool ok = WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0;
      if (!ok && failed < 0) {
        failed = static_cast<int64_t>(r);
        stopping = std::chrono::steady_clock::now();
        for (const auto& other : children) {
          if (other.running) ::kill(other.pid, SIGTERM);
        }
      }
    }
    if (failed >= 0 && !killed &&
        std::chrono::steady_clock::now() - stopping > std::chrono::seconds(5)) {
      for (const auto& other : children) {
        if (other.running) ::kill(other.pid, SIGKILL);
      }
      killed = true;
    }
  }
  if (failed < 0) return 0;
  std::fprintf(stderr, "eie train: error: rank %lld failed (%s); the other ranks were stopped\n",
               static_cast<long long>(failed), how_it_ended(children[failed].status).c_str());
  return 1;
}

}  // namespace eie
