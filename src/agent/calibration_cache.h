#pragma once

// Calibrated scales (--scale calibrated) and entropy biases (--bias entropy) at any
// size, cheaply: measured only at grid sizes N * 2^(k/2) (100, 141, 200, 283, ... for
// N = 100), kept in a table, and interpolated between the two grid sizes around n,
// linearly in log n. A size between known grid sizes costs no measurement, and n = N + 1
// lies next to the values at N. Tables live in a FILE the user names
// (calibrated:FILE, entropy:FILE), or else in a per-user cache folder, one file per
// model fingerprint and setting.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/agent/agent.h"

namespace eie {

// The grid sizes whose values give n's: n alone when on the grid (or a table row
// already), else the grid sizes just below and above it (none below 2).
[[nodiscard]] std::vector<int64_t> grid_neighbours(int64_t train_n, int64_t n);

// n's values from `table`: its own row, else interpolated between the rows of its grid
// neighbours (std::out_of_range when the table lacks one), linearly in log n; and in
// log value when `logarithmic` (scales; betas, which may be 0, linearly).
[[nodiscard]] LayerValues interpolate(const LayerTable& table, int64_t train_n, int64_t n,
                                      bool logarithmic);

// Where tables are kept between calls.
struct CalibrationCache {
  std::filesystem::path folder;   // "" when nothing is kept
  bool named = false;             // the user named it: one that cannot be written is an
                                  // error; the default's is a note on stderr
  std::filesystem::path shipped;  // read only: tables shipped with the models, whose rows
                                  // count as cached ("" for none)
};

// The tables shipped beside the shipped models (results/models/calibrations).
[[nodiscard]] std::filesystem::path shipped_calibrations();

// $EIE_CACHE_DIR, else $XDG_CACHE_HOME/eie, else $HOME/.cache/eie (none when unset),
// with the shipped tables.
[[nodiscard]] CalibrationCache default_calibration_cache();

// Whether a --scale spec asks for calibration: "calibrated" or "calibrated:FILE".
[[nodiscard]] bool is_calibrated(const std::string& spec);

// The calibrated scales of `agent` for `sizes`: read from the spec's FILE (or else the
// cache) where it has the grid sizes needed, measured otherwise (and written back). A
// named FILE belongs to one model and one window setting: std::invalid_argument for a
// FILE of another (or without a stamp). A cache entry that is corrupt or belongs to
// another model is ignored with a note and measured again.
[[nodiscard]] std::shared_ptr<const LayerScaleTable> calibrated_scales(
    Agent& agent, const AttentionConfig& base, const std::string& spec,
    const std::vector<int64_t>& sizes, const CalibrationCache& cache);

// The entropy biases of `agent` for `sizes` (--bias entropy[:FILE]), as
// calibrated_scales().
[[nodiscard]] std::shared_ptr<const LayerTable> entropy_biases(Agent& agent,
                                                               const AttentionConfig& base,
                                                               const std::string& file,
                                                               const std::vector<int64_t>& sizes,
                                                               const CalibrationCache& cache);

}  // namespace eie
