#pragma once

// Per-layer entropy calibration (--scale calibrated): for each encoder layer, then
// the decoder glimpse, the scale lambda_l(n) at which the attention entropy
// measured on the real model at size n equals the one measured at the training
// size N with 1/sqrt(d), found by bisection layer after layer (a layer's entropy
// depends on the scales of the layers before it, not after). Training-free;
// measured on fresh instances of the training distribution drawn from a seed of
// their own, never on the instances being solved.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/agent/agent.h"
#include "src/nn/entropy_probe.h"

namespace eie {

// Instances of size n to measure: about 3,200 attention rows per layer, at least 2.
[[nodiscard]] int64_t measurement_count(int64_t n);

// The attention entropies of `agent` under `config` on `count` fresh instances of
// size n (seeded): the encoder layers from encoding alone, and the glimpse too
// when `decode` (greedy decoding). Leaves the agent in eval mode with `config`
// set, without probes.
[[nodiscard]] nn::EntropyProbes measure_entropy(Agent& agent, AttentionConfig config, int64_t n,
                                                int64_t count, uint64_t seed, bool decode);

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

// What a calibration table was measured on: a cached table is used for that model and
// setting only. In the file as comment lines before the header: "# model: ..." and
// "# setting: ...".
struct CalibrationStamp {
  std::string model;    // nn::module_fingerprint of the network
  std::string setting;  // the rest of the attention config the values depend on
};

// Calibration tables as CSV (`n,layer,lambda`, layer an encoder index or "glimpse");
// read throws std::invalid_argument naming the file and line, and gives the file's
// stamp (empty fields where it has none).
[[nodiscard]] LayerScaleTable read_layer_scales(const std::filesystem::path& path,
                                                CalibrationStamp* stamp = nullptr);
void write_layer_scales(const std::filesystem::path& path, const LayerScaleTable& table,
                        const CalibrationStamp& stamp = {});
// The same for biases (`n,layer,beta`, with a pointer row).
[[nodiscard]] LayerTable read_layer_biases(const std::filesystem::path& path,
                                           CalibrationStamp* stamp = nullptr);
void write_layer_biases(const std::filesystem::path& path, const LayerTable& table,
                        const CalibrationStamp& stamp = {});

// Whether a --scale spec asks for calibration: "calibrated" or "calibrated:FILE".
[[nodiscard]] bool is_calibrated(const std::string& spec);

// The calibrated scales of `agent` for `sizes`: read from the spec's FILE where it
// has them, measured otherwise (FILE is then rewritten with them). A FILE belongs to
// one model and one window setting: std::invalid_argument for a FILE of another (or
// without a stamp).
[[nodiscard]] std::shared_ptr<const LayerScaleTable> calibrated_scales(
    Agent& agent, const AttentionConfig& base, const std::string& spec,
    const std::vector<int64_t>& sizes);

// The entropy biases of `agent` for `sizes` (--bias entropy[:FILE]), as
// calibrated_scales(): read from FILE where it has them, measured otherwise.
[[nodiscard]] std::shared_ptr<const LayerTable> entropy_biases(Agent& agent,
                                                               const AttentionConfig& base,
                                                               const std::string& file,
                                                               const std::vector<int64_t>& sizes);

}  // namespace eie
