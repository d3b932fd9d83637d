#pragma once

// Decoding strategies on top of the one decode loop: greedy, best of K samples,
// best of K greedy trajectories from K forced first actions (multi-start), alone or
// several at once (the best of all their solutions), and each of these as the best over
// the 8 dihedral transforms of each instance, and over rotated views of it as well.

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "src/agent/agent.h"

namespace eie {

struct Decoding {
  enum class Kind { greedy, sample, multistart };
  struct Strategy {
    Kind kind = Kind::greedy;
    int64_t samples = 1;  // K for Kind::sample; starts for Kind::multistart (0: default_starts)
  };
  std::vector<Strategy> strategies{Strategy{}};  // per instance, the best of all their solutions
  bool symmetries = false;  // the best over the 8 symmetries of each instance as well (aug8)
  // With symmetries: views turned by 90 j / rotations degrees, j < rotations, each with
  // its 8 symmetries (augK: K / 8 rotations).
  int64_t rotations = 1;
};
// One or more of "greedy", "sample:K", "multistart[:K]" joined by "+" (each instance
// gets the best of their solutions), optionally followed by "+augK" (K = 8: the 8
// symmetries; a multiple of 8 up to 512: K / 8 rotations, each with the 8), or "augK"
// alone (= greedy+augK); throws std::invalid_argument otherwise.
[[nodiscard]] Decoding parse_decoding(const std::string& text);

// Starts of a multi-start decoding or training by default: every first choice, at most 100.
[[nodiscard]] int64_t default_starts(int64_t n);

struct Solutions {
  torch::Tensor actions;  // [count, T] int64 (routing: shorter rows padded with 0 = depot)
  torch::Tensor cost;     // [count] float32, as the environments computed it
};

// Symmetric copies of each instance that aug8 decodes: the problem's symmetries (8 for
// routing, 1 for packing).
[[nodiscard]] int64_t symmetric_copies(const Problem& problem, const Instances& instances);

// Decodes every instance in inference mode (no autograd), `chunk` instances at a time (memory
// stays bounded), each view (augK) and each strategy of a chunk a unit of its own, the units
// in parallel over torch::get_num_threads() threads; `on_chunk` is told how many instances
// each chunk finished (never concurrently). When the agent
// decodes in tiles, each tile is solved with `decoding` and the tiles' solutions joined.
[[nodiscard]] Solutions solve(Agent& agent, const Instances& instances, const Decoding& decoding,
                              int64_t chunk, torch::Generator& generator,
                              const std::function<void(int64_t)>& on_chunk = {});

// Actions [B, T] padded with 0 (routing: the depot; no-op steps) to `width` >= T columns,
// so that solutions of different lengths stack.
[[nodiscard]] torch::Tensor pad_columns(const torch::Tensor& actions, int64_t width);

// Instances per chunk so that each of torch::get_num_threads() threads decodes a chunk of
// its own (chunks are what runs in parallel), at most `cap`.
[[nodiscard]] int64_t chunk_per_thread(int64_t count, int64_t cap);

// The chunk for solve() at n nodes: `cpu_chunk` where the agent runs on the CPU (chunks
// are decoded in parallel there); on a GPU, as many instances at once as keep the
// encoder's B n^2 attention scores within bounds (16,384 at n = 100, 64 at n = 1,600):
// fewer, larger kernels.
[[nodiscard]] int64_t device_chunk(Agent& agent, int64_t n, int64_t cpu_chunk);

}  // namespace eie
