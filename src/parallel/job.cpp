#include "src/parallel/job.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "src/util/parse.h"

namespace eie {
namespace {

constexpr int64_t kDefaultTimeout = 300;  // seconds; longer than any rank's epoch-end work

// The flag's value, else the environment variable's, else nothing.
std::optional<std::string> setting(const cxxopts::ParseResult& r, const std::string& flag,
                                   const char* variable) {
  if (r.count(flag)) return r[flag].as<std::string>();
  if (const char* value = std::getenv(variable); value && *value) return std::string(value);
  return std::nullopt;
}

int64_t integer(const std::string& text, const std::string& flag, const char* variable) {
  return parse_int(text, "--" + flag + " (or " + std::string(variable) + ")");
}

// --master-port, else MASTER_PORT, else nothing.
std::optional<int> master_port(const cxxopts::ParseResult& r) {
  const auto port = setting(r, "master-port", "MASTER_PORT");
  if (!port) return std::nullopt;
  const auto value = integer(*port, "master-port", "MASTER_PORT");
  if (value < 1 || value > 65535) {
    throw std::invalid_argument("--master-port (or MASTER_PORT) " + *port + ": expected 1..65535");
  }
  return static_cast<int>(value);
}

}  // namespace

void add_job_flags(cxxopts::Options& options) {
  options.add_options("data-parallel job")(
      "master-addr", "address of rank 0 (env MASTER_ADDR; default 127.0.0.1)",
      cxxopts::value<std::string>())("master-port",
                                     "port rank 0 listens on (env MASTER_PORT; "
                                     "default 29500)",
                                     cxxopts::value<std::string>())(
      "world-size", "ranks in the job (env WORLD_SIZE; --batch is the global batch)",
      cxxopts::value<std::string>())("rank", "this process's rank, 0..WORLD_SIZE-1 (env RANK)",
                                     cxxopts::value<std::string>())(
      "job-timeout", "seconds a rank waits for the others (joining, and every exchange)",
      cxxopts::value<int64_t>()->default_value(std::to_string(kDefaultTimeout)))(
      "nproc", "start N ranks on this machine (over loopback) and wait for them",
      cxxopts::value<int64_t>());
}

std::optional<JobAddress> job_address(const cxxopts::ParseResult& r) {
  const auto world = setting(r, "world-size", "WORLD_SIZE");
  const auto rank = setting(r, "rank", "RANK");
  if (!world) {
    if (rank) throw std::invalid_argument("--rank (or RANK) needs --world-size (or WORLD_SIZE)");
    return std::nullopt;
  }
  JobAddress a;
  a.world_size = integer(*world, "world-size", "WORLD_SIZE");
  if (a.world_size < 1) {
    throw std::invalid_argument("--world-size (or WORLD_SIZE) " + *world + ": must be at least 1");
  }
  a.rank = rank ? integer(*rank, "rank", "RANK") : 0;
  if (a.rank < 0 || a.rank >= a.world_size) {
    throw std::invalid_argument("--rank (or RANK) " + std::to_string(a.rank) + ": expected 0.." +
                                std::to_string(a.world_size - 1));
  }
  if (!rank && a.world_size > 1) throw std::invalid_argument("--rank (or RANK) is required");
  if (const auto addr = setting(r, "master-addr", "MASTER_ADDR")) a.master_addr = *addr;
  if (const auto port = master_port(r)) a.port = *port;
  if (a.world_size == 1) return std::nullopt;
  return a;
}

std::chrono::seconds job_timeout(const cxxopts::ParseResult& r) {
  const auto seconds = r["job-timeout"].as<int64_t>();
  if (seconds < 1) throw std::invalid_argument("--job-timeout must be at least 1 second");
  return std::chrono::seconds(seconds);
}

int local_job_port(const cxxopts::ParseResult& r) { return master_port(r).value_or(0); }

std::vector<std::string> arguments_for_ranks(int argc, char** argv) {
  std::vector<std::string> arguments;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--nproc") {
      ++i;  // and its value
    } else if (a.rfind("--nproc=", 0) != 0) {
      arguments.push_back(a);
    }
  }
  return arguments;
}

int64_t local_ranks(const cxxopts::ParseResult& r) {
  if (!r.count("nproc")) return 0;
  const auto n = r["nproc"].as<int64_t>();
  if (n < 1) throw std::invalid_argument("--nproc must be at least 1");
  if (job_address(r) || r.count("rank") || std::getenv("RANK")) {
    throw std::invalid_argument(
        "--nproc starts its own ranks: no --rank or --world-size (nor "
        "RANK or WORLD_SIZE in the environment)");
  }
  return n;
}

}  // namespace eie
