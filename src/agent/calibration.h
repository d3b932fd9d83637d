#pragma once

// Per-layer entropy calibration (--scale calibrated): for each encoder layer, then
// the decoder glimpse, the scale lambda_l(n) at which the attention entropy
// measured on the real model at size n equals the one measured at the training
// size N with 1/sqrt(d), found layer after layer (a layer's entropy depends on the
// scales of the layers before it, not after). Training-free;
// measured on fresh instances of the training distribution drawn from a seed of
// their own, never on the instances being solved.

#include <cstdint>

#include "src/agent/agent.h"
#include "src/nn/entropy_probe.h"

namespace eie {

// Instances of size n to measure: about 3,200 attention rows per layer, at least 2.
[[nodiscard]] int64_t measurement_count(int64_t n);

// The attention entropies of `agent` under `config` on `instances`: the encoder
// layers from encoding alone, and the glimpse and pointer too when `decode` (greedy
// decoding). Leaves the agent in eval mode with `config` set, without probes.
[[nodiscard]] nn::EntropyProbes measure_entropy(Agent& agent, AttentionConfig config,
                                                const Instances& instances, bool decode);
// The same on `count` fresh instances of size n (seeded).
[[nodiscard]] nn::EntropyProbes measure_entropy(Agent& agent, const AttentionConfig& config,
                                                int64_t n, int64_t count, uint64_t seed,
                                                bool decode);

// What a calibration at n measures: instances at the training size and at n, the smaller
// ones the first nodes of the larger (measurement_count() of each), so that near N
// the two entropies differ by the size, not by the draw: at N + 1 a fresh draw's noise
// alone asked for betas of 160.
struct PairedInstances {
  Instances at_train;
  Instances at_n;
};
[[nodiscard]] PairedInstances paired_instances(const Problem& problem, int64_t train_n, int64_t n,
                                               uint64_t seed);

// The calibrated scales at size n for an agent trained at train_n; `base` carries
// the rest of the attention config (a window is measured with the window on).
[[nodiscard]] LayerScales calibrate_layers(Agent& agent, const AttentionConfig& base,
                                           int64_t train_n, int64_t n, uint64_t seed = 20261123);

// The distance betas at size n (--bias entropy) for an agent trained at train_n:
// per encoder layer, then the glimpse, then the pointer, the beta at which the
// entropy measured at n with the rest of `base` (its scale policy, its window) meets
// the one measured at N as trained, in the parts base.bias names (the others as
// trained). For a network with trained betas, the beta added to every head's trained
// one (as grown with n). 0 where the entropy at n is already at most the target.
[[nodiscard]] LayerBiases calibrate_biases(Agent& agent, const AttentionConfig& base,
                                           int64_t train_n, int64_t n, uint64_t seed = 20261126);

}  // namespace eie
