#include "src/agent/calibration.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace eie {

namespace {
constexpr int64_t kRows = 3200;      // attention rows per layer a measurement aims at
constexpr double kTolerance = 1e-3;  // nats: a layer's entropy this close to its target is met
constexpr int kMostSteps = 24;       // evaluations one layer's search may take
constexpr double kMostScale = 64.0;  // lambda searched in [s / 64, 64 s] (s = 1/sqrt(d)): the
                                     // reference TSP model needs 16 s at n = 1600
constexpr double kFirstBeta = 1.0;   // betas searched from 0, then 1, 4, 16, ... up to 1e4
constexpr double kMostBeta = 1e4;    // (or down to 1e-2 from a beta found before)
constexpr double kLeastBeta = 1e-2;
constexpr double kNearGrowth = 1.25;  // the bracket's growth from a guess near the answer

// Mean over heads of a probe's mean row entropy.
double mean_entropy(const nn::EntropyProbe& probe) { return probe.mean().mean().item<double>(); }

// The value (>= 0) at which `entropy`, falling as the value grows, meets `target`:
// first `start` (kept when already within kTolerance), then a bracket grown by factors
// of `growth` (from `first` when `start` is 0) up to `most` (or down to `least`), then
// false position between its ends (Illinois: a stale end's weight halves). A layer
// takes about 5 measurements. The bracket's end when the target lies beyond it; 0 when
// `start` is 0 and already concentrates as much as the target.
double match_entropy(double start, double first, double least, double most, double growth,
                     double target, const std::function<double(double)>& entropy) {
  const double at_start = entropy(start);
  if (std::abs(at_start - target) <= kTolerance) return start;
  const bool grow = at_start > target;  // too diluted: a larger value concentrates it
  if (!grow && start == 0) return 0;
  double near = start, f_near = at_start - target;
  double far = start == 0 ? first : grow ? start * growth : start / growth;
  double f_far = f_near;
  int steps = 1;
  for (;;) {
    far = std::clamp(far, least, most);
    f_far = entropy(far) - target;
    ++steps;
    if (std::abs(f_far) <= kTolerance) return far;
    if ((f_far > 0) != grow) break;  // crossed: the target lies between near and far
    if (far == (grow ? most : least) || steps >= kMostSteps) return far;
    near = far, f_near = f_far;
    far = grow ? far * growth : far / growth;
  }
  int stale = 0;  // the end that stayed last time: -1 near, +1 far
  while (steps < kMostSteps && std::abs(far - near) > 1e-4 * std::max(near, far)) {
    const double x = far - f_far * (far - near) / (f_far - f_near);
    const double fx = entropy(x) - target;
    ++steps;
    if (std::abs(fx) <= kTolerance) return x;
    if ((fx > 0) == (f_near > 0)) {
      near = x, f_near = fx;
      if (stale == 1) f_far /= 2;
      stale = 1;
    } else {
      far = x, f_far = fx;
      if (stale == -1) f_near /= 2;
      stale = -1;
    }
  }
  return std::abs(f_near) < std::abs(f_far) ? near : far;
}
}  // namespace

int64_t measurement_count(int64_t n) { return std::max<int64_t>(2, (kRows + n - 1) / n); }

PairedInstances paired_instances(const Problem& problem, int64_t train_n, int64_t n,
                                 uint64_t seed) {
  const int64_t count_n = measurement_count(n), count_train = measurement_count(train_n);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed + static_cast<uint64_t>(n));
  const auto drawn =
      problem.generate(std::max(count_n, count_train), std::max(n, train_n), generator);
  const auto first = [&](int64_t count, int64_t size) {
    return problem.first_nodes(drawn.slice(0, count), size);
  };
  return {first(count_train, train_n), first(count_n, n)};
}

nn::EntropyProbes measure_entropy(Agent& agent, AttentionConfig config, const Instances& instances,
                                  bool decode) {
  torch::NoGradGuard no_grad;
  agent.network().eval();
  const auto on_device = instances.to(agent.device());
  nn::EntropyProbes probes;
  config.probes = &probes;
  agent.set_attention(config);
  if (decode) {
    (void)agent.rollout(on_device, Selection::greedy, std::nullopt);
  } else {
    (void)agent.embed(on_device);
  }
  config.probes = nullptr;
  agent.set_attention(config);
  return probes;
}

nn::EntropyProbes measure_entropy(Agent& agent, const AttentionConfig& config, int64_t n,
                                  int64_t count, uint64_t seed, bool decode) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed + static_cast<uint64_t>(n));
  return measure_entropy(agent, config, agent.problem().generate(count, n, generator), decode);
}

LayerScales calibrate_layers(Agent& agent, const AttentionConfig& base, int64_t train_n, int64_t n,
                             uint64_t seed) {
  if (base.window > 0 && base.window_parts.view) {
    throw std::invalid_argument("calibrated scales do not combine with local views");
  }
  const auto pair = paired_instances(agent.problem(), train_n, n, seed);
  // 1/sqrt(d) everywhere, no window: the training-time entropies.
  const auto targets = measure_entropy(agent, AttentionConfig{}, pair.at_train, true);
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
    return measure_entropy(agent, config, pair.at_n, decode);
  };
  // One layer's scale from `guess`: `entropy_at` sets it and measures. The first layer
  // starts at 1/sqrt(d), each later one (and the glimpse) at the scale found before it,
  // nearer than 1/sqrt(d) (shipped TSP model, n = 566: 21 measurements instead of 31).
  const auto solve = [&](double guess, double target,
                         const std::function<double(double)>& entropy_at) {
    return match_entropy(guess, guess, start / kMostScale, start * kMostScale,
                         guess == start ? 2.0 : kNearGrowth, target, entropy_at);
  };
  double guess = start;
  for (size_t l = 0; l < scales.encoder.size(); ++l) {
    guess = scales.encoder[l] = solve(guess, mean_entropy(targets.encoder[l]), [&](double lambda) {
      scales.encoder[l] = lambda;
      return mean_entropy(measured(false).encoder[l]);
    });
  }
  scales.glimpse = solve(guess, mean_entropy(targets.glimpse), [&](double lambda) {
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
  const auto pair = paired_instances(agent.problem(), train_n, n, seed);
  const auto targets = measure_entropy(agent, AttentionConfig{}, pair.at_train, true);
  // The betas added to the bias as trained (none without trained betas), from 0.
  LayerBiases betas{std::vector<double>(targets.encoder.size(), 0.0), 0.0, 0.0};
  AttentionConfig config = base;
  config.bias.name = "entropy";  // where base.bias applies
  const auto& parts = config.bias.parts;
  const auto measured = [&](bool decode) {
    config.calibrated_bias = std::make_shared<const LayerTable>(LayerTable{{n, betas}});
    return measure_entropy(agent, config, pair.at_n, decode);
  };
  // One layer's beta, from `current`: `entropy_at` sets it and measures.
  const auto solve = [&](double current, double target,
                         const std::function<double(double)>& entropy_at) {
    return match_entropy(current, kFirstBeta, kLeastBeta, kMostBeta, current == 0 ? 4.0 : 2.0,
                         target, entropy_at);
  };
  // Each encoder layer from the beta found for the one before, as the scales above
  // (shipped TSP model, n = 566: 21 encoder measurements instead of 27).
  double guess = 0;
  for (size_t l = 0; l < betas.encoder.size() && parts.encoder; ++l) {
    guess = betas.encoder[l] = solve(guess, mean_entropy(targets.encoder[l]), [&](double beta) {
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
      betas.glimpse = solve(betas.glimpse, mean_entropy(targets.glimpse), [&](double beta) {
        betas.glimpse = beta;
        return mean_entropy(measured(true).glimpse);
      });
    }
    if (parts.pointer) {
      betas.pointer = solve(betas.pointer, mean_entropy(targets.pointer), [&](double beta) {
        betas.pointer = beta;
        return mean_entropy(measured(true).pointer);
      });
    }
  }
  return betas;
}

}  // namespace eie
