#pragma once

// Rollouts on a GPU replayed from CUDA graphs: greedy ones (solve, the rollout baseline)
// and sampled ones (sample:K, a training step's samples). A decode step is a few dozen
// small kernels: at n = 1,600 their launches, not their work, bound it (results/gpu.md),
// and a graph launches a whole rollout, encoder and every step, at once. Captured per
// batch shape: the first batch of a shape runs as it is (it warms the libraries up), the
// second is captured and replayed, later ones are replayed into the captured buffers.
// Built with EIE_CUDA_GRAPHS only (the CUDA build); elsewhere every rollout runs as it is,
// and so it does where the environment variable EIE_CUDA_GRAPHS is 0.

#include <torch/torch.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "src/decode/decode_loop.h"
#include "src/problem/instances.h"

namespace eie {

class GraphedRollouts {
 public:
  using Rollout = std::function<Trajectory(const Instances&)>;

  GraphedRollouts();
  ~GraphedRollouts();
  GraphedRollouts(const GraphedRollouts&) = delete;
  GraphedRollouts& operator=(const GraphedRollouts&) = delete;

  // `rollout(instances)`, replayed where a graph of this shape was captured. `rollout`
  // must read no device value (its environment's steps are fixed) and decode with its
  // host checks deferred (decode() does so while a capture runs); the replayed
  // trajectory is checked here. A sampled rollout (`sampled`: it samples every step, from
  // `generator`) takes its uniforms from rows each replay first draws from `generator`
  // (UniformsGiven): the same draws as step by step. A shape whose capture fails runs as
  // it is from then on, with one note on stderr.
  [[nodiscard]] Trajectory run(const Instances& instances, const Rollout& rollout,
                               bool sampled = false,
                               std::optional<torch::Generator> generator = std::nullopt);
  // Forgets every graph: what they captured (attention settings) changed.
  void clear();

 private:
  struct Shape;
  // Captures `rollout` on copies of `instances` into `shape` (CUDA graphs only); false,
  // with a note, when some step of it cannot be captured.
  static bool capture(Shape& shape, const Instances& instances, const Rollout& rollout,
                      bool sampled);
  std::map<std::string, std::unique_ptr<Shape>> shapes_;
};

}  // namespace eie
