#include "src/agent/calibration.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "src/nn/module_state.h"
#include "src/util/atomic_path.h"
#include "src/util/parse.h"

namespace eie {

namespace {
constexpr int64_t kRows = 3200;       // attention rows per layer a measurement aims at
constexpr int64_t kBisections = 14;   // halvings of the log-scale bracket
constexpr double kBelow = 16.0;       // lambda searched in [s / kBelow, s * kAbove]:
constexpr double kAbove = 64.0;       // the reference TSP model needs 16 s at n = 1600

// Mean over heads of a probe's mean row entropy.
double mean_entropy(const nn::EntropyProbe& probe) { return probe.mean().mean().item<double>(); }

constexpr double kLeastBeta = 1e-2;  // betas searched in [kLeastBeta, kMostBeta]
constexpr double kMostBeta = 1e4;    // (or 0 when no bias is needed)

// The value in [low, high] (by halving its logarithm) where `entropy(value)` meets
// `target` (entropy falls as the value grows); the bracket's end when the target is
// outside it.
double bisect(double low, double high, double target, const std::function<double(double)>& entropy) {
  double lo = std::log(low), hi = std::log(high);
  for (int64_t i = 0; i < kBisections; ++i) {
    const double mid = 0.5 * (lo + hi);
    (entropy(std::exp(mid)) > target ? lo : hi) = mid;
  }
  return std::exp(0.5 * (lo + hi));
}
}  // namespace

int64_t measurement_count(int64_t n) { return std::max<int64_t>(2, (kRows + n - 1) / n); }

nn::EntropyProbes measure_entropy(Agent& agent, AttentionConfig config, int64_t n, int64_t count,
                                  uint64_t seed, bool decode) {
  torch::NoGradGuard no_grad;
  agent.network().eval();
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed + static_cast<uint64_t>(n));
  const auto instances = agent.problem().generate(count, n, generator).to(agent.device());
  nn::EntropyProbes probes;
  config.probes = &probes;
  agent.set_attention(config);
  if (decode) {
    (void)agent.rollout(instances, Selection::greedy, std::nullopt);
  } else {
    (void)agent.embed(instances);
  }
  config.probes = nullptr;
  agent.set_attention(config);
  return probes;
}

LayerScales calibrate_layers(Agent& agent, const AttentionConfig& base, int64_t train_n, int64_t n,
                             uint64_t seed) {
  if (base.window > 0 && base.window_parts.view) {
    throw std::invalid_argument("calibrated scales do not combine with local views");
  }
  AttentionConfig trained;  // 1/sqrt(d) everywhere, no window: the training-time entropies
  const auto targets =
      measure_entropy(agent, trained, train_n, measurement_count(train_n), seed, true);
  const auto spec = agent.spec();
  const auto head_dim =
      std::get<int64_t>(spec.at("embed_dim")) / std::get<int64_t>(spec.at("heads"));
  const double start = 1.0 / std::sqrt(static_cast<double>(head_dim));

  LayerScales scales{std::vector<double>(targets.encoder.size(), start), start};
  AttentionConfig config = base;
  config.policy = nullptr;
  // The entropies at size n with the scales as they stand.
  const auto measured = [&](bool decode) {
    config.calibrated = std::make_shared<const LayerScaleTable>(LayerScaleTable{{n, scales}});
    return measure_entropy(agent, config, n, measurement_count(n), seed, decode);
  };
  for (size_t l = 0; l < scales.encoder.size(); ++l) {
    scales.encoder[l] = bisect(start / kBelow, start * kAbove, mean_entropy(targets.encoder[l]),
                               [&](double lambda) {
      scales.encoder[l] = lambda;
      return mean_entropy(measured(false).encoder[l]);
    });
  }
  scales.glimpse = bisect(start / kBelow, start * kAbove, mean_entropy(targets.glimpse),
                          [&](double lambda) {
    scales.glimpse = lambda;
    return mean_entropy(measured(true).glimpse);
  });
  return scales;
}

LayerBiases calibrate_biases(Agent& agent, const AttentionConfig& base, int64_t train_n, int64_t n,
                             uint64_t seed) {
  if (base.window > 0 && base.window_parts.view) {
    throw std::invalid_argument("entropy biases do not combine with local views");
  }
  const auto targets =
      measure_entropy(agent, AttentionConfig{}, train_n, measurement_count(train_n), seed, true);
  // The betas added to the bias as trained (none without trained betas), from 0.
  LayerBiases betas{std::vector<double>(targets.encoder.size(), 0.0), 0.0, 0.0};
  AttentionConfig config = base;
  config.bias.name = "entropy";  // where base.bias applies
  const auto& parts = config.bias.parts;
  const auto measured = [&](bool decode) {
    config.calibrated_bias = std::make_shared<const LayerTable>(LayerTable{{n, betas}});
    return measure_entropy(agent, config, n, measurement_count(n), seed, decode);
  };
  // The beta of one layer: `entropy_at` sets it and measures.
  const auto solve = [&](double target, const std::function<double(double)>& entropy_at) {
    if (entropy_at(0.0) <= target) return 0.0;  // already as concentrated as at N
    return bisect(kLeastBeta, kMostBeta, target, entropy_at);
  };
  for (size_t l = 0; l < betas.encoder.size() && parts.encoder; ++l) {
    betas.encoder[l] = solve(mean_entropy(targets.encoder[l]), [&](double beta) {
      betas.encoder[l] = beta;
      return mean_entropy(measured(false).encoder[l]);
    });
  }
  // The glimpse's entropy depends on the tours decoded, which the pointer's bias
  // changes (a strong one makes them nearest-neighbour tours), and the pointer's on the
  // glimpse: with both, the pair is solved twice, the second time each with the
  // other's bias in place.
  const int rounds = parts.glimpse && parts.pointer ? 2 : 1;
  for (int round = 0; round < rounds; ++round) {
    if (parts.glimpse) {
      betas.glimpse = solve(mean_entropy(targets.glimpse), [&](double beta) {
        betas.glimpse = beta;
        return mean_entropy(measured(true).glimpse);
      });
    }
    if (parts.pointer) {
      betas.pointer = solve(mean_entropy(targets.pointer), [&](double beta) {
        betas.pointer = beta;
        return mean_entropy(measured(true).pointer);
      });
    }
  }
  return betas;
}

namespace {

// A table's stamp lines come first, then the header, then the rows.
constexpr char kModelLine[] = "# model: ";
constexpr char kSettingLine[] = "# setting: ";

// A calibration table (`n,layer,VALUE`: an encoder index, glimpse or pointer);
// values must be positive, or >= 0 when `zero_allowed`.

LayerTable read_layer_table(const std::filesystem::path& path, const std::string& value,
                            bool zero_allowed, CalibrationStamp* stamp) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open calibration table");
  LayerScaleTable table;
  CalibrationStamp read_stamp;
  std::string line;
  int64_t number = 0;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++number;
    if (!header_seen && line.rfind(kModelLine, 0) == 0) {
      read_stamp.model = line.substr(sizeof kModelLine - 1);
      continue;
    }
    if (!header_seen && line.rfind(kSettingLine, 0) == 0) {
      read_stamp.setting = line.substr(sizeof kSettingLine - 1);
      continue;
    }
    if (!header_seen && table.empty() && line.rfind("n,", 0) == 0) {
      header_seen = true;
      continue;
    }
    if (line.empty()) continue;
    const std::string where = path.string() + ":" + std::to_string(number);
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    if (fields.size() != 3) throw std::invalid_argument(where + ": expected n,layer," + value);
    const int64_t n = parse_int(fields[0], where + ": n");
    const double lambda = parse_double(fields[2], where + ": " + value);
    if (!(lambda > 0 || (zero_allowed && lambda == 0)) || !std::isfinite(lambda)) {
      throw std::invalid_argument(where + ": " + value + " must be " +
                                  (zero_allowed ? ">= 0" : "positive") + " and finite");
    }
    auto& scales = table[n];
    if (fields[1] == "glimpse") {
      scales.glimpse = lambda;
    } else if (fields[1] == "pointer" && zero_allowed) {
      scales.pointer = lambda;
    } else {
      const auto layer = static_cast<size_t>(parse_int(fields[1], where + ": layer"));
      if (layer != scales.encoder.size()) {
        throw std::invalid_argument(where + ": encoder layers must be listed in order from 0");
      }
      scales.encoder.push_back(lambda);
    }
  }
  for (const auto& [n, scales] : table) {
    if ((!zero_allowed && scales.glimpse <= 0) || scales.encoder.empty()) {
      throw std::invalid_argument(path.string() + ": n = " + std::to_string(n) +
                                  " lacks encoder layers or the glimpse");
    }
  }
  if (stamp) *stamp = read_stamp;
  return table;
}

void write_layer_table(const std::filesystem::path& path, const LayerTable& table,
                       const std::string& value, bool pointer, const CalibrationStamp& stamp) {
  std::ostringstream file;
  if (!stamp.model.empty()) file << kModelLine << stamp.model << '\n';
  if (!stamp.setting.empty()) file << kSettingLine << stamp.setting << '\n';
  file << "n,layer," << value << "\n";
  file.precision(9);
  for (const auto& [n, values] : table) {
    for (size_t l = 0; l < values.encoder.size(); ++l) {
      file << n << ',' << l << ',' << values.encoder[l] << '\n';
    }
    file << n << ",glimpse," << values.glimpse << '\n';
    if (pointer) file << n << ",pointer," << values.pointer << '\n';
  }
  write_file(path, file.str());
}

// Throws std::invalid_argument unless `file`'s stamp is `wanted`.
void check_stamp(const std::filesystem::path& file, const CalibrationStamp& found,
                 const CalibrationStamp& wanted) {
  if (found.model.empty()) {
    throw std::invalid_argument(file.string() +
                                ": a calibration table without the model it was measured on "
                                "(written before tables recorded it): delete it to measure again");
  }
  if (found.model != wanted.model) {
    throw std::invalid_argument(file.string() + ": calibrated on another model (fingerprint " +
                                found.model + "; this model's is " + wanted.model +
                                "): name another file");
  }
  if (found.setting != wanted.setting) {
    throw std::invalid_argument(file.string() + ": calibrated under another attention setting ('" +
                                found.setting + "'; this one is '" + wanted.setting +
                                "'): name another file");
  }
}

// The table in `file` (none when "" or absent), completed with `calibrate(n)` for
// the sizes it lacks, and rewritten when it was; a file stamped otherwise is refused.
std::shared_ptr<const LayerTable> cached_table(
    const std::filesystem::path& file, const std::vector<int64_t>& sizes, const std::string& what,
    const CalibrationStamp& stamp,
    const std::function<LayerTable(const std::filesystem::path&, CalibrationStamp*)>& read,
    const std::function<void(const std::filesystem::path&, const LayerTable&,
                             const CalibrationStamp&)>& write,
    const std::function<LayerValues(int64_t)>& calibrate) {
  LayerTable table;
  if (!file.empty() && std::filesystem::exists(file)) {
    CalibrationStamp found;
    table = read(file, &found);
    check_stamp(file, found, stamp);
  }
  bool measured = false;
  for (const auto n : sizes) {
    if (table.count(n)) continue;
    std::fprintf(stderr, "calibrating %s at n = %lld\n", what.c_str(), static_cast<long long>(n));
    table[n] = calibrate(n);
    measured = true;
  }
  if (measured && !file.empty()) write(file, table, stamp);
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

LayerScaleTable read_layer_scales(const std::filesystem::path& path, CalibrationStamp* stamp) {
  return read_layer_table(path, "lambda", false, stamp);
}

void write_layer_scales(const std::filesystem::path& path, const LayerScaleTable& table,
                        const CalibrationStamp& stamp) {
  write_layer_table(path, table, "lambda", false, stamp);
}

LayerTable read_layer_biases(const std::filesystem::path& path, CalibrationStamp* stamp) {
  return read_layer_table(path, "beta", true, stamp);
}

void write_layer_biases(const std::filesystem::path& path, const LayerTable& table,
                        const CalibrationStamp& stamp) {
  write_layer_table(path, table, "beta", true, stamp);
}

bool is_calibrated(const std::string& spec) {
  return spec == "calibrated" || spec.rfind("calibrated:", 0) == 0;
}

std::shared_ptr<const LayerScaleTable> calibrated_scales(Agent& agent, const AttentionConfig& base,
                                                         const std::string& spec,
                                                         const std::vector<int64_t>& sizes) {
  const std::string prefix = "calibrated:";
  const std::filesystem::path file = spec.size() > prefix.size() ? spec.substr(prefix.size()) : "";
  const auto train_n = std::get<int64_t>(agent.spec().at("train_n"));
  // Scales are measured with the window and without a scale policy or a bias.
  const CalibrationStamp stamp{nn::module_fingerprint(agent.network()), window_text(base)};
  return cached_table(file, sizes, "attention scales", stamp, read_layer_scales, write_layer_scales,
                      [&](int64_t n) { return calibrate_layers(agent, base, train_n, n); });
}

std::shared_ptr<const LayerTable> entropy_biases(Agent& agent, const AttentionConfig& base,
                                                 const std::string& file,
                                                 const std::vector<int64_t>& sizes) {
  const auto train_n = std::get<int64_t>(agent.spec().at("train_n"));
  // A trained network's table once held factors of its betas: "added" tells the two apart.
  const bool trained = agent.spec().count("distance_bias") > 0;
  const CalibrationStamp stamp{nn::module_fingerprint(agent.network()),
                               bias_setting_text(base) + (trained ? ", added to trained" : "")};
  return cached_table(file, sizes, "distance biases", stamp, read_layer_biases, write_layer_biases,
                      [&](int64_t n) { return calibrate_biases(agent, base, train_n, n); });
}

}  // namespace eie
