#pragma once

// A Collective over LibTorch's c10d: a TCPStore on rank 0 for the rendezvous and a
// Gloo process group for the collectives. The only file that sees c10d's headers.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "src/parallel/collective.h"

namespace eie {

// Where a job's ranks meet: rank 0 listens on master_addr:port.
struct JobAddress {
  std::string master_addr = "127.0.0.1";
  int port = 29500;
  int64_t world_size = 1;
  int64_t rank = 0;
};

// Joins the job as address.rank. Every rank must give the same master and world size:
// a rank that disagrees with rank 0 stops itself and rank 0 with one line. Throws
// std::runtime_error when the master cannot be reached or the port is taken, and when
// the job is not complete after `timeout`; any later operation that waits longer than
// `timeout` (a rank lost or stalled) throws too. GLOO_SOCKET_IFNAME, as in PyTorch,
// names the network interface to use.
[[nodiscard]] std::unique_ptr<Collective> join_job(const JobAddress& address,
                                                   std::chrono::seconds timeout);

// A TCP port nobody listens on now (the kernel's pick) on the loopback interface, for
// jobs on one machine. Throws std::runtime_error when there is none.
[[nodiscard]] int free_loopback_port();

}  // namespace eie
