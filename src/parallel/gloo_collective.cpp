#include "src/parallel/gloo_collective.h"

#include <arpa/inet.h>
#include <c10/util/Logging.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace eie {
namespace {

std::string text_of(const std::vector<uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }
std::vector<uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// c10d's messages carry a C++ backtrace: its first line says what happened.
std::string first_line(const std::string& message) { return message.substr(0, message.find('\n')); }

constexpr auto kBeat = std::chrono::seconds(1);  // heartbeat period

std::string beat_key(int64_t rank) { return "eie/alive/" + std::to_string(rank); }

// Every rank counts its heartbeats in the store, so that when a collective fails the
// others can tell which rank stopped: a rank whose count no longer moves.
class Heartbeat {
 public:
  Heartbeat(const JobAddress& a, std::chrono::seconds timeout) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(a.port);
    options.waitWorkers = false;
    options.timeout = timeout;
    store_ = c10::make_intrusive<c10d::TCPStore>(a.master_addr, options);
    thread_ = std::thread([this, key = beat_key(a.rank)] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!stopping_) {
        try {
          store_->add(key, 1);
        } catch (const std::exception&) {
          return;  // the master is gone: the collectives will say so
        }
        wake_.wait_for(lock, kBeat, [this] { return stopping_; });
      }
    });
  }
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  c10::intrusive_ptr<c10d::Store> store_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

class GlooCollective final : public Collective {
 public:
  GlooCollective(c10::intrusive_ptr<c10d::Store> store,
                 c10::intrusive_ptr<c10d::ProcessGroupGloo> group, const JobAddress& address,
                 std::chrono::seconds timeout)
      : store_(std::move(store)),
        group_(std::move(group)),
        rank_(address.rank),
        size_(address.world_size),
        heartbeat_(address, timeout) {}

  [[nodiscard]] int64_t rank() const override { return rank_; }
  [[nodiscard]] int64_t size() const override { return size_; }

  // c10d's lists hold one tensor per local device: here always one. Tensors on a GPU
  // travel through the host (Gloo's own GPU support depends on how LibTorch was built).
  void sum(torch::Tensor& tensor) override {
    if (!tensor.is_cpu()) return through_host(tensor, [this](torch::Tensor& t) { sum(t); });
    std::vector<torch::Tensor> one{tensor};
    run("all-reduce", [&] { group_->allreduce(one)->wait(); });
  }

  void broadcast(torch::Tensor& tensor) override {
    if (!tensor.is_cpu()) return through_host(tensor, [this](torch::Tensor& t) { broadcast(t); });
    std::vector<torch::Tensor> one{tensor};
    run("broadcast", [&] { group_->broadcast(one)->wait(); });
  }

 private:
  template <typename Operation>
  static void through_host(torch::Tensor& tensor, Operation operation) {
    auto host = tensor.to(torch::kCPU).contiguous();
    operation(host);
    tensor.copy_(host);
  }

  template <typename Operation>
  void run(const char* what, Operation operation) {
    try {
      operation();
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("rank ") + std::to_string(rank_) + ": " + what +
                               " failed: " + lost_ranks() + " (" + first_line(e.what()) + ")");
    }
  }

  // Which ranks stopped beating over a few periods (rank 0 when the store is gone).
  std::string lost_ranks() {
    try {
      const auto counts = [&] {
        std::vector<int64_t> count;
        for (int64_t r = 0; r < size_; ++r) count.push_back(store_->add(beat_key(r), 0));
        return count;
      };
      const auto before = counts();
      std::this_thread::sleep_for(3 * kBeat);
      const auto after = counts();
      std::string lost;
      for (int64_t r = 0; r < size_; ++r) {
        if (after[r] == before[r]) lost += (lost.empty() ? "" : ", ") + std::to_string(r);
      }
      if (lost.empty()) return "every rank is alive: a rank stalled past the timeout";
      return "lost rank " + lost;
    } catch (const std::exception&) {
      return "lost rank 0 (the master: its store no longer answers)";
    }
  }

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
  int64_t rank_;
  int64_t size_;
  Heartbeat heartbeat_;
};

c10::intrusive_ptr<c10d::Store> connect_store(const JobAddress& a, std::chrono::seconds timeout) {
  c10d::TCPStoreOptions options;
  options.port = static_cast<uint16_t>(a.port);
  options.isServer = a.rank == 0;
  options.numWorkers = static_cast<size_t>(a.world_size);
  options.waitWorkers = false;  // joining is checked below, with clearer errors
  options.timeout = timeout;
  const std::string where = a.master_addr + ":" + std::to_string(a.port);
  try {
    return c10::make_intrusive<c10d::TCPStore>(a.master_addr, options);
  } catch (const std::exception& e) {
    if (a.rank == 0) {
      throw std::runtime_error(
          "rank 0 cannot listen on " + where +
          " (port in use, or not this machine's address): " + first_line(e.what()));
    }
    throw std::runtime_error("rank " + std::to_string(a.rank) + " cannot reach the master at " +
                             where + " within " + std::to_string(timeout.count()) +
                             " s: " + first_line(e.what()));
  }
}

// Every rank checks in; a rank whose world size differs from rank 0's, or whose rank
// another already took, records why, and rank 0 reports it.
void check_in(c10d::Store& store, const JobAddress& a, std::chrono::seconds timeout) {
  const std::string world = std::to_string(a.world_size);
  if (a.rank == 0) store.set("eie/world_size", bytes_of(world));
  const auto refuse = [&](const std::string& why) {
    store.set("eie/refused", bytes_of(why));
    throw std::runtime_error(why);
  };
  const auto first = text_of(store.get("eie/world_size"));
  if (first != world) {
    refuse("rank " + std::to_string(a.rank) + " has WORLD_SIZE " + world + ", rank 0 has " + first +
           ": every rank must give the same");
  }
  if (store.add("eie/rank/" + std::to_string(a.rank), 1) > 1) {
    refuse("rank " + std::to_string(a.rank) + " was claimed by two processes");
  }
  if (a.rank != 0) return;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (store.check({"eie/refused"})) throw std::runtime_error(text_of(store.get("eie/refused")));
    int64_t joined = 0;
    for (int64_t r = 0; r < a.world_size; ++r) {
      joined += store.check({"eie/rank/" + std::to_string(r)}) ? 1 : 0;
    }
    if (joined == a.world_size) return;
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("only " + std::to_string(joined) + " of " + world +
                               " ranks joined within " + std::to_string(timeout.count()) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::shared_ptr<::gloo::transport::Device> device_for(const JobAddress& a) {
  if (const char* name = std::getenv("GLOO_SOCKET_IFNAME"); name && *name) {
    return c10d::ProcessGroupGloo::createDeviceForInterface(name);
  }
  if (a.master_addr == "127.0.0.1" || a.master_addr == "localhost") {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

}  // namespace

int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("cannot open a socket to find a free port");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("no free port on the loopback interface");
  return ntohs(address.sin_port);
}

std::unique_ptr<Collective> join_job(const JobAddress& a, std::chrono::seconds timeout) {
  // c10d logs connection trouble on stderr besides throwing it: the exceptions are
  // reported, in one line each.
  FLAGS_caffe2_log_level = 3;  // fatal only
  c10::UpdateLoggingLevelsFromFlags();
  auto store = connect_store(a, timeout);
  check_in(*store, a, timeout);
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(device_for(a));
  options->threads = 1;  // the ranks' compute threads are --threads
  try {
    auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        c10::make_intrusive<c10d::PrefixStore>("gloo", store), static_cast<int>(a.rank),
        static_cast<int>(a.world_size), options);
    return std::make_unique<GlooCollective>(store, group, a, timeout);
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(a.rank) +
                             " could not connect to the job's "
                             "other ranks: " +
                             first_line(e.what()));
  }
}

}  // namespace eie
