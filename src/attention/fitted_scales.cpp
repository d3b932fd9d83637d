#include "src/attention/fitted_scales.h"

#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "src/attention/scale_fit.h"

namespace eie {

namespace {

constexpr int64_t kExactQueries = 16384;  // sampled queries per on-demand root
constexpr uint64_t kExactSeed = 20241;    // fixed: the policy is a deterministic function

void check_sizes(const std::string& file, const ScaleNetworkOptions& o, const ScaleQuery& q) {
  if (o.head_dim != q.head_dim || o.train_n != q.train_n) {
    throw std::invalid_argument(file + ": scale file made for d = " + std::to_string(o.head_dim) +
                                ", N = " + std::to_string(o.train_n) + "; the model has d = " +
                                std::to_string(q.head_dim) + ", N = " + std::to_string(q.train_n));
  }
  if (q.n > o.max_n || q.n < o.train_n) {
    throw std::invalid_argument(file + ": scale file covers n in [" + std::to_string(o.train_n) +
                                ", " + std::to_string(o.max_n) + "], n = " + std::to_string(q.n) +
                                " requested");
  }
}

// A policy read from a scale file: `eie` evaluates the network, `eie-exact`
// interpolates the exact roots linearly in ln n.
class FileScale final : public ScalePolicy {
 public:
  FileScale(std::string name, const std::string& file)
      : name_(std::move(name)), file_(file), fit_(read_scale_file(file)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] double lambda(const ScaleQuery& q) const override {
    check_sizes(file_, fit_.network->options(), q);
    if (name_ == "eie") {
      // Evaluated once per n: every rollout asks, and one read back per layer setting
      // would show among the decode's own (tests count them).
      std::lock_guard<std::mutex> lock(mutex_);
      const auto found = evaluated_.find(q.n);
      if (found != evaluated_.end()) return found->second;
      torch::NoGradGuard no_grad;
      return evaluated_[q.n] =
                 fit_.network->forward(torch::tensor({static_cast<double>(q.n)}, torch::kDouble))
                     .item<double>();
    }
    const auto& g = fit_.grid;
    size_t i = 1;
    while (i + 1 < g.size() && g[i] < q.n) ++i;
    const double t = (std::log(q.n) - std::log(g[i - 1])) / (std::log(g[i]) - std::log(g[i - 1]));
    return fit_.exact[i - 1] + t * (fit_.exact[i] - fit_.exact[i - 1]);
  }

 private:
  std::string name_;       // eie or eie-exact
  std::string file_;       // for messages
  mutable ScaleFile fit_;  // network and table (evaluating a module is not const in LibTorch)
  mutable std::mutex mutex_;                     // guards evaluated_
  mutable std::map<int64_t, double> evaluated_;  // the network's lambda per n
};

// Roots solved on demand with a fixed-seed estimator, cached per (d, N, n).
class SolvedExactScale final : public ScalePolicy {
 public:
  [[nodiscard]] std::string name() const override { return "eie-exact"; }
  [[nodiscard]] double lambda(const ScaleQuery& q) const override {
    const auto key = std::make_tuple(q.head_dim, q.train_n, q.n);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = cache_.find(key);
    if (found != cache_.end()) return found->second;
    const EntropyEstimator estimator(q.head_dim, std::max(q.n, q.train_n), kExactQueries,
                                     kExactSeed);
    const double target =
        estimator.expected(q.train_n, 1.0 / std::sqrt(static_cast<double>(q.head_dim)));
    return cache_[key] = solve_scale(estimator, q.n, target);
  }

 private:
  mutable std::mutex mutex_;                                               // guards cache_
  mutable std::map<std::tuple<int64_t, int64_t, int64_t>, double> cache_;  // solved roots
};

}  // namespace

std::unique_ptr<ScalePolicy> make_fitted_scale_policy(const std::string& name,
                                                      const std::string& file) {
  if (name == "eie") {
    if (file.empty())
      throw std::invalid_argument("scale policy eie needs a scale file: eie:FILE.h5");
    return std::make_unique<FileScale>(name, file);
  }
  if (file.empty()) return std::make_unique<SolvedExactScale>();
  return std::make_unique<FileScale>(name, file);
}

}  // namespace eie
