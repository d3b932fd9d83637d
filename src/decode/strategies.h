#pragma once

// Decoding strategies on top of the one decode loop: greedy, best of K samples,
// and best of the 8 dihedral transforms of each instance.

#include <torch/torch.h>

#include <functional>
#include <string>

#include "decode/agent.h"

namespace eie {

struct Decoding {
  enum class Kind { greedy, sample, aug8 };
  Kind kind = Kind::greedy;  // strategy
  int64_t samples = 1;       // K for Kind::sample
};
// "greedy", "sample:K" or "aug8"; throws std::invalid_argument otherwise.
[[nodiscard]] Decoding parse_decoding(const std::string& text);

struct Solutions {
  torch::Tensor actions;  // [count, T] int64 (routing: shorter rows padded with 0 = depot)
  torch::Tensor cost;     // [count] float32, as the environments computed it
};

// Decodes every instance in inference mode (no autograd), `chunk` instances at a time (memory
// stays bounded), chunks in parallel over torch::get_num_threads() threads; `on_chunk` is
// told how many instances each chunk finished (never concurrently). When the agent
// decodes in tiles, each tile is solved with `decoding` and the tiles' solutions joined.
[[nodiscard]] Solutions solve(Agent& agent, const Instances& instances, const Decoding& decoding,
                              int64_t chunk, torch::Generator& generator,
                              const std::function<void(int64_t)>& on_chunk = {});

// Instances per chunk so that each of torch::get_num_threads() threads decodes a chunk of
// its own (chunks are what runs in parallel), at most `cap`.
[[nodiscard]] int64_t chunk_per_thread(int64_t count, int64_t cap);

}  // namespace eie
