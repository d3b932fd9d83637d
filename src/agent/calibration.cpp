#include "src/agent/calibration.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

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

// lambda in the bracket around `start` where `entropy(lambda)` meets `target`
// (entropy falls as lambda grows); the bracket's end when the target is outside it.
double bisect(double start, double target, const std::function<double(double)>& entropy) {
  double lo = std::log(start / kBelow), hi = std::log(start * kAbove);
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
  const auto instances = agent.problem().generate(count, n, generator);
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
    scales.encoder[l] = bisect(start, mean_entropy(targets.encoder[l]), [&](double lambda) {
      scales.encoder[l] = lambda;
      return mean_entropy(measured(false).encoder[l]);
    });
  }
  scales.glimpse = bisect(start, mean_entropy(targets.glimpse), [&](double lambda) {
    scales.glimpse = lambda;
    return mean_entropy(measured(true).glimpse);
  });
  return scales;
}

LayerScaleTable read_layer_scales(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open calibration table");
  LayerScaleTable table;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 && line.rfind("n,", 0) == 0) continue;  // header
    if (line.empty()) continue;
    const std::string where = path.string() + ":" + std::to_string(number);
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    if (fields.size() != 3) throw std::invalid_argument(where + ": expected n,layer,lambda");
    const int64_t n = parse_int(fields[0], where + ": n");
    const double lambda = parse_double(fields[2], where + ": lambda");
    if (!(lambda > 0) || !std::isfinite(lambda)) {
      throw std::invalid_argument(where + ": lambda must be positive and finite");
    }
    auto& scales = table[n];
    if (fields[1] == "glimpse") {
      scales.glimpse = lambda;
    } else {
      const auto layer = static_cast<size_t>(parse_int(fields[1], where + ": layer"));
      if (layer != scales.encoder.size()) {
        throw std::invalid_argument(where + ": encoder layers must be listed in order from 0");
      }
      scales.encoder.push_back(lambda);
    }
  }
  for (const auto& [n, scales] : table) {
    if (scales.glimpse <= 0 || scales.encoder.empty()) {
      throw std::invalid_argument(path.string() + ": n = " + std::to_string(n) +
                                  " lacks encoder layers or the glimpse");
    }
  }
  return table;
}

void write_layer_scales(const std::filesystem::path& path, const LayerScaleTable& table) {
  std::ostringstream file;
  file << "n,layer,lambda\n";
  file.precision(9);
  for (const auto& [n, scales] : table) {
    for (size_t l = 0; l < scales.encoder.size(); ++l) {
      file << n << ',' << l << ',' << scales.encoder[l] << '\n';
    }
    file << n << ",glimpse," << scales.glimpse << '\n';
  }
  write_file(path, file.str());
}

bool is_calibrated(const std::string& spec) {
  return spec == "calibrated" || spec.rfind("calibrated:", 0) == 0;
}

std::shared_ptr<const LayerScaleTable> calibrated_scales(Agent& agent, const AttentionConfig& base,
                                                         const std::string& spec,
                                                         const std::vector<int64_t>& sizes) {
  const std::string prefix = "calibrated:";
  const std::filesystem::path file = spec.size() > prefix.size() ? spec.substr(prefix.size()) : "";
  LayerScaleTable table;
  if (!file.empty() && std::filesystem::exists(file)) table = read_layer_scales(file);
  const auto train_n = std::get<int64_t>(agent.spec().at("train_n"));
  bool measured = false;
  for (const auto n : sizes) {
    if (table.count(n)) continue;
    std::fprintf(stderr, "calibrating attention scales at n = %lld\n", static_cast<long long>(n));
    table[n] = calibrate_layers(agent, base, train_n, n);
    measured = true;
  }
  if (measured && !file.empty()) write_layer_scales(file, table);
  return std::make_shared<const LayerScaleTable>(std::move(table));
}

}  // namespace eie
