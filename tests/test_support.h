#pragma once

#include <filesystem>
#include <random>
#include <string>

#include "problems/common/point.h"
#include "src/agent/policy_registry.h"
#include "src/problem/registry.h"

namespace eie::test {

// ../shared beside the project (golden data and public instances); tests that
// need it skip with a message when it is absent.
inline std::filesystem::path shared_dir() { return EIE_SHARED_DIR; }
inline bool has_shared() { return std::filesystem::is_directory(shared_dir() / "reference"); }

#define EIE_REQUIRE_SHARED()                          \
  if (!::eie::test::has_shared())                     \
  GTEST_SKIP() << "../shared is absent: golden data " \
                  "and public instances not available"

// A network smaller than the default, for fast tests.
inline NetworkOptions small_network(int64_t embed_dim, int64_t heads, int64_t ff_hidden,
                                    int64_t layers) {
  NetworkOptions o;
  o.encoder.embed_dim = embed_dim, o.encoder.heads = heads;
  o.encoder.ff_hidden = ff_hidden, o.encoder.layers = layers;
  return o;
}

// n cities uniform in the unit square, from a seed.
inline std::vector<Point> random_cities(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Point> cities(n);
  for (auto& c : cities) c = {u(rng), u(rng)};
  return cities;
}

// An untrained agent in eval mode and float64 (tight equivalence tolerances).
inline std::unique_ptr<Agent> eval_double_agent(const std::string& problem, int64_t train_n) {
  auto agent = make_agent(make_problem(problem), NetworkOptions{}, train_n);
  agent->network().eval();
  agent->network().to(torch::kDouble);
  return agent;
}

// A fresh empty directory for one test's files.
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace eie::test
