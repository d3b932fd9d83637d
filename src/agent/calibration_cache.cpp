#include "src/agent/calibration_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <system_error>

#include "src/agent/calibration.h"
#include "src/agent/calibration_table.h"
#include "src/nn/module_state.h"
#include "src/util/fnv1a.h"
#include "src/util/parse.h"

namespace eie {

namespace {

// Grid size k: N * 2^(k/2), rounded (never below 2).
int64_t grid_size(int64_t train_n, int64_t k) {
  return std::max<int64_t>(
      2, std::llround(static_cast<double>(train_n) * std::pow(2.0, static_cast<double>(k) / 2)));
}

using TableReader = std::function<LayerTable(const std::filesystem::path&, CalibrationStamp*)>;
using TableWriter =
    std::function<void(const std::filesystem::path&, const LayerTable&, const CalibrationStamp&)>;

// What one kind of table is: its name in cache files, its file format, how its values
// interpolate, and how one size is measured.
struct TableKind {
  std::string name;  // "scales" or "biases"
  TableReader read;
  TableWriter write;
  bool logarithmic;
  std::function<LayerValues(int64_t)> calibrate;
};

// The cache file of a model and setting.
std::filesystem::path cache_file(const std::filesystem::path& folder, const std::string& kind,
                                 const CalibrationStamp& stamp) {
  char setting[17];
  std::snprintf(setting, sizeof setting, "%016" PRIx64,
                fnv1a(kFnvOffset, stamp.setting.data(), stamp.setting.size()));
  return folder / (kind + "-" + stamp.model + "-" + setting + ".csv");
}

// Throws std::runtime_error with the reason unless a file can be made in `folder`.
void check_writable(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw std::runtime_error(error.message());
  if (::access(folder.c_str(), W_OK) != 0) throw std::runtime_error(std::strerror(errno));
}

// The table kept in `path` (a named file: refused when stamped otherwise; a cache
// entry: ignored with a note when unreadable or stamped otherwise).
LayerTable stored_table(const std::filesystem::path& path, bool named, const TableKind& kind,
                        const CalibrationStamp& stamp) {
  if (path.empty() || !std::filesystem::exists(path)) return {};
  try {
    CalibrationStamp found;
    auto table = kind.read(path, &found);
    check_stamp(path, found, stamp);
    return table;
  } catch (const std::invalid_argument& e) {
    if (named) throw;
    std::fprintf(stderr, "note: calibration cache entry ignored, measuring again: %s\n", e.what());
    return {};
  }
}

// The values of `kind` for `sizes`: the grid sizes they need read from `file` (or the
// cache), the missing ones measured and written back.
std::shared_ptr<const LayerTable> cached_table(const std::filesystem::path& file,
                                               const CalibrationCache& cache,
                                               const std::vector<int64_t>& sizes, int64_t train_n,
                                               const CalibrationStamp& stamp,
                                               const TableKind& kind) {
  const bool named = !file.empty();
  const auto path = named                  ? file
                    : cache.folder.empty() ? ""
                                           : cache_file(cache.folder, kind.name, stamp);
  auto table = stored_table(path, named, kind, stamp);
  if (!named && !cache.shipped.empty()) {  // rows the user's cache lacks
    for (auto& [n, values] :
         stored_table(cache_file(cache.shipped, kind.name, stamp), false, kind, stamp)) {
      table.emplace(n, std::move(values));
    }
  }
  std::vector<int64_t> missing;
  for (const auto n : sizes) {
    if (table.count(n)) continue;
    for (const auto g : grid_neighbours(train_n, n)) {
      if (!table.count(g) && std::find(missing.begin(), missing.end(), g) == missing.end()) {
        missing.push_back(g);
      }
    }
  }
  bool keep = !path.empty();
  if (!missing.empty() && !named && keep) {
    try {
      check_writable(cache.folder);
    } catch (const std::runtime_error& e) {
      if (cache.named) {
        throw std::invalid_argument("--calibration-cache " + cache.folder.string() +
                                    ": cannot write there (" + e.what() + ")");
      }
      std::fprintf(stderr, "note: calibrations are not kept: %s: %s\n", cache.folder.c_str(),
                   e.what());
      keep = false;
    }
  }
  for (const auto g : missing) {
    std::fprintf(stderr, "calibrating attention %s at n = %lld\n", kind.name.c_str(),
                 static_cast<long long>(g));
    table[g] = kind.calibrate(g);
  }
  if (!missing.empty() && keep) kind.write(path, table, stamp);
  // The grid rows stay: a calibration under these values (entropy biases under
  // calibrated scales) measures at grid sizes too.
  for (const auto n : sizes) table[n] = interpolate(table, train_n, n, kind.logarithmic);
  return std::make_shared<const LayerTable>(std::move(table));
}

std::string window_text(const AttentionConfig& c) {
  if (c.window <= 0) return "window none";
  const auto& p = c.window_parts;
  return "window " + std::to_string(c.window) + "@" +
         names_of_enabled({{p.encoder, "encoder"},
                           {p.glimpse, "glimpse"},
                           {p.pointer, "pointer"},
                           {p.view, "view"},
                           {p.tiles, "tiles"}});
}

// What entropy biases depend on besides the model: the scales, the window, and where
// the bias applies.
std::string bias_setting_text(const AttentionConfig& c) {
  std::string scale =
      c.calibrated ? "calibrated"
      : c.policy   ? c.policy->name() + (c.scope == ScaleScope::encoder ? "@encoder" : "@all")
                   : "as trained";
  const auto& p = c.bias.parts;
  return "scale " + scale + ", " + window_text(c) + ", bias@" +
         names_of_enabled({{p.encoder, "encoder"}, {p.glimpse, "glimpse"}, {p.pointer, "pointer"}});
}

}  // namespace

std::vector<int64_t> grid_neighbours(int64_t train_n, int64_t n) {
  const double k = 2 * std::log2(static_cast<double>(n) / static_cast<double>(train_n));
  const auto below = grid_size(train_n, static_cast<int64_t>(std::floor(k + 1e-9)));
  const auto above = grid_size(train_n, static_cast<int64_t>(std::ceil(k - 1e-9)));
  if (below == n || above == n || below >= above) return {n};
  return {below, above};
}

LayerValues interpolate(const LayerTable& table, int64_t train_n, int64_t n, bool logarithmic) {
  if (const auto row = table.find(n); row != table.end()) return row->second;
  const auto around = grid_neighbours(train_n, n);
  if (around.size() == 1) return table.at(n);
  const auto& low = table.at(around[0]);
  const auto& high = table.at(around[1]);
  const double t = std::log(static_cast<double>(n) / static_cast<double>(around[0])) /
                   std::log(static_cast<double>(around[1]) / static_cast<double>(around[0]));
  const auto mix = [&](double a, double b) {
    if (logarithmic && a > 0 && b > 0) return std::exp((1 - t) * std::log(a) + t * std::log(b));
    return (1 - t) * a + t * b;
  };
  if (low.encoder.size() != high.encoder.size()) {
    throw std::invalid_argument("calibration table: sizes " + std::to_string(around[0]) + " and " +
                                std::to_string(around[1]) + " differ in encoder layers");
  }
  LayerValues out{{}, mix(low.glimpse, high.glimpse), mix(low.pointer, high.pointer)};
  for (size_t l = 0; l < low.encoder.size(); ++l) {
    out.encoder.push_back(mix(low.encoder[l], high.encoder[l]));
  }
  return out;
}

std::filesystem::path shipped_calibrations() {
  return std::filesystem::path(EIE_MODELS_DIR) / "calibrations";
}

CalibrationCache default_calibration_cache() {
  const auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value ? value : "");
  };
  std::filesystem::path folder;
  if (const auto eie = variable("EIE_CACHE_DIR"); !eie.empty()) {
    folder = eie;
  } else if (const auto xdg = variable("XDG_CACHE_HOME"); !xdg.empty()) {
    folder = std::filesystem::path(xdg) / "eie";
  } else if (const auto home = variable("HOME"); !home.empty()) {
    folder = std::filesystem::path(home) / ".cache" / "eie";
  }
  return {folder, false, shipped_calibrations()};
}

bool is_calibrated(const std::string& spec) {
  return spec == "calibrated" || spec.rfind("calibrated:", 0) == 0;
}

std::shared_ptr<const LayerScaleTable> calibrated_scales(Agent& agent, const AttentionConfig& base,
                                                         const std::string& spec,
                                                         const std::vector<int64_t>& sizes,
                                                         const CalibrationCache& cache) {
  const std::string prefix = "calibrated:";
  const std::filesystem::path file = spec.size() > prefix.size() ? spec.substr(prefix.size()) : "";
  const auto train_n = std::get<int64_t>(agent.spec().at("train_n"));
  // Scales are measured with the window and without a scale policy or a bias.
  const CalibrationStamp stamp{nn::module_fingerprint(agent.network()), window_text(base)};
  return cached_table(file, cache, sizes, train_n, stamp,
                      {"scales", read_layer_scales, write_layer_scales, true,
                       [&](int64_t n) { return calibrate_layers(agent, base, train_n, n); }});
}

std::shared_ptr<const LayerTable> entropy_biases(Agent& agent, const AttentionConfig& base,
                                                 const std::string& file,
                                                 const std::vector<int64_t>& sizes,
                                                 const CalibrationCache& cache) {
  const auto train_n = std::get<int64_t>(agent.spec().at("train_n"));
  // A trained network's table once held factors of its betas: "added" tells the two apart.
  const bool trained = agent.spec().count("distance_bias") > 0;
  const CalibrationStamp stamp{nn::module_fingerprint(agent.network()),
                               bias_setting_text(base) + (trained ? ", added to trained" : "")};
  return cached_table(file, cache, sizes, train_n, stamp,
                      {"biases", read_layer_biases, write_layer_biases, false,
                       [&](int64_t n) { return calibrate_biases(agent, base, train_n, n); }});
}

}  // namespace eie
