#include "src/agent/strategies.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <stdexcept>

#include "src/util/parse.h"

namespace eie {

int64_t default_starts(int64_t n) { return std::min<int64_t>(n, 100); }

namespace {

constexpr double kQuarterTurn = 1.5707963267948966;  // radians

Decoding::Strategy parse_strategy(const std::string& name, const std::string& text) {
  const auto count_after = [&](const std::string& prefix) {
    const auto k = parse_int(name.substr(prefix.size()), "--decode " + prefix + "K");
    constexpr int64_t kMaxCopies = 100'000;  // rows per instance: beyond, memory runs out
    if (k < 1 || k > kMaxCopies) {
      throw std::invalid_argument("--decode " + prefix + "K needs 1 <= K <= " +
                                  std::to_string(kMaxCopies) + ", got " + std::to_string(k));
    }
    return k;
  };
  if (name == "greedy") return {Decoding::Kind::greedy, 1};
  if (name == "multistart") return {Decoding::Kind::multistart, 0};
  if (name.rfind("multistart:", 0) == 0) {
    return {Decoding::Kind::multistart, count_after("multistart:")};
  }
  if (name.rfind("sample:", 0) == 0) return {Decoding::Kind::sample, count_after("sample:")};
  throw std::invalid_argument(
      "--decode: expected greedy, sample:K or multistart[:K], several joined by +, optionally "
      "+augK (or augK alone), got '" +
      text + "'");
}

// Rotations of "augK" (K / 8); 0 where `name` is not augK.
int64_t rotations_of(const std::string& name) {
  if (name.rfind("aug", 0) != 0 || name.size() == 3) return 0;
  constexpr int64_t kMaxViews = 512;
  const auto views = parse_int(name.substr(3), "--decode augK");
  if (views < 8 || views > kMaxViews || views % 8 != 0) {
    throw std::invalid_argument("--decode augK needs K a multiple of 8 from 8 to " +
                                std::to_string(kMaxViews) + ", got '" + name + "'");
  }
  return views / 8;
}

// Actions padded to a common width, and the costs, of several solution sets.
std::pair<std::vector<torch::Tensor>, std::vector<torch::Tensor>> unzip(
    const std::vector<Solutions>& parts) {
  int64_t width = 0;
  for (const auto& p : parts) width = std::max(width, p.actions.size(1));
  std::vector<torch::Tensor> actions, costs;
  for (const auto& p : parts) {
    actions.push_back(pad_columns(p.actions, width));
    costs.push_back(p.cost);
  }
  return {actions, costs};
}

// For each instance, the candidate with the lowest cost. candidates[c] covers all instances.
Solutions best_of(const std::vector<Solutions>& candidates) {
  const auto [actions, costs] = unzip(candidates);
  const int64_t width = actions[0].size(1);
  const auto all_costs = torch::stack(costs, 1);  // [B, C]
  const auto best = all_costs.argmin(1);
  const auto all_actions = torch::stack(actions, 1);  // [B, C, T]
  return {all_actions.gather(1, best.view({-1, 1, 1}).expand({-1, 1, width})).squeeze(1),
          all_costs.gather(1, best.unsqueeze(1)).squeeze(1)};
}

// For each run of `K` consecutive rows (one instance's candidates), the cheapest.
Solutions best_in_groups(const Solutions& rows, int64_t K) {
  const int64_t B = rows.cost.size(0) / K;
  const auto best = rows.cost.view({B, K}).argmin(1) + torch::arange(B, rows.cost.device()) * K;
  return {rows.actions.index_select(0, best), rows.cost.index_select(0, best)};
}

// One strategy on one set of instances (no symmetries).
Solutions solve_strategy(Agent& agent, const Instances& chunk, const Decoding::Strategy& strategy,
                         torch::Generator& generator) {
  switch (strategy.kind) {
    case Decoding::Kind::greedy: {
      const auto t = agent.rollout(chunk, Selection::greedy, std::nullopt);
      return {t.actions, t.cost};
    }
    case Decoding::Kind::sample: {
      const auto t = agent.rollout_copies(chunk, Selection::sample, generator, strategy.samples);
      return best_in_groups({t.actions, t.cost}, strategy.samples);
    }
    case Decoding::Kind::multistart: {
      const auto& problem = agent.problem();
      // multistart:K takes every first choice when an instance (or a tile) has fewer than K.
      const int64_t n = problem.size(chunk);
      const int64_t K = strategy.samples > 0 ? std::min(strategy.samples, n) : default_starts(n);
      const auto t = agent.rollout(chunk, Selection::greedy, std::nullopt,
                                   problem.start_actions(chunk, K));
      return best_in_groups({t.actions, t.cost}, K);
    }
  }
  throw std::logic_error("unhandled decoding kind");
}

// One strategy on view `view` of `chunk`, rotation by rotation: view / per_rotation is
// the rotation, view % per_rotation the symmetry.
Solutions solve_view(Agent& agent, const Instances& chunk, const Decoding& decoding, int64_t view,
                     int64_t per_rotation, const Decoding::Strategy& strategy,
                     torch::Generator& generator) {
  if (!decoding.symmetries) return solve_strategy(agent, chunk, strategy, generator);
  const auto& problem = agent.problem();
  const int64_t j = view / per_rotation;
  const double radians =
      kQuarterTurn * static_cast<double>(j) / static_cast<double>(decoding.rotations);
  const auto variants = problem.symmetries(j == 0 ? chunk : problem.rotated(chunk, radians));
  auto solutions = solve_strategy(agent, variants[view % per_rotation], strategy, generator);
  // A rotated view is scaled into the square: its costs are the instance's only after a
  // check on the instance itself.
  if (j > 0) {
    solutions.cost = problem.check(chunk, solutions.actions.to(torch::kCPU))
                         .to(solutions.cost.device(), solutions.cost.scalar_type());
  }
  return solutions;
}

}  // namespace

int64_t symmetric_copies(const Problem& problem, const Instances& instances) {
  return static_cast<int64_t>(problem.symmetries(instances.slice(0, 1)).size());
}

Decoding parse_decoding(const std::string& text) {
  std::vector<std::string> names;
  for (size_t begin = 0;;) {
    const auto end = text.find('+', begin);
    names.push_back(text.substr(begin, end == std::string::npos ? end : end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  Decoding decoding;
  if (const auto rotations = rotations_of(names.back()); rotations > 0) {
    decoding.symmetries = true;
    decoding.rotations = rotations;
    if (names.size() == 1) return decoding;
    names.pop_back();
  }
  decoding.strategies.clear();
  for (const auto& name : names) decoding.strategies.push_back(parse_strategy(name, text));
  return decoding;
}

Solutions solve(Agent& agent, const Instances& instances, const Decoding& decoding, int64_t chunk,
                torch::Generator& generator, const std::function<void(int64_t)>& on_chunk) {
  if (instances.count() == 0) throw std::invalid_argument("no instances to solve");
  const auto& problem = agent.problem();
  const int64_t tile = agent.tile_size(), n = problem.size(instances);
  if (tile > 0 && tile < n) {
    // Every part an instance of its own, with the same strategy; a chunk of parts
    // holds about as many nodes as a chunk of instances.
    const auto tiling = problem.tile(instances, tile);
    std::vector<torch::Tensor> part_actions;
    for (const auto& part : tiling->parts()) {
      part_actions.push_back(solve(agent, part, decoding, chunk * (n / tile), generator).actions);
    }
    const auto actions = tiling->join(part_actions);
    if (on_chunk) on_chunk(instances.count());
    return {actions, problem.check(instances, actions).to(torch::kFloat)};
  }
  const bool was_training = agent.network().is_training();
  agent.network().eval();
  // The work: every strategy on every view of every chunk, a unit each, so that even one
  // instance's views and strategies are decoded in parallel.
  const int64_t chunks = (instances.count() + chunk - 1) / chunk;
  const int64_t strategies = static_cast<int64_t>(decoding.strategies.size());
  // Views of each instance per rotation: the instance itself, or its symmetric copies.
  const int64_t per_rotation = decoding.symmetries ? symmetric_copies(problem, instances) : 1;
  const int64_t per_chunk = decoding.rotations * per_rotation * strategies;
  const int64_t units = chunks * per_chunk;
  // One generator per unit, seeded in order: samples do not depend on the thread count.
  std::vector<torch::Generator> generators;
  for (int64_t u = 0; u < units; ++u) {
    generators.push_back(at::make_generator<at::CPUGeneratorImpl>(
        generator.get<at::CPUGeneratorImpl>()->random64()));
  }
  // Units run in parallel, one thread each: a decode step is many small ops that
  // intra-op threads slow down. Inside an OpenMP region ATen and OpenBLAS run every op
  // on the calling thread, so a single unit runs in the region too: with intra-op
  // threads one packing of n = 1600 took 4.4-6.1 s on 2 threads, 1.5 s on one (`eie gen
  // --problem bpp3d --n 1600 --count 1 --seed 2`, `eie solve --dataset`).
  std::vector<std::vector<Solutions>> candidates(chunks, std::vector<Solutions>(per_chunk));
  std::vector<int64_t> unfinished(chunks, per_chunk);
  std::vector<Solutions> parts(chunks);
  std::exception_ptr failure;
  std::mutex report;
  const int threads = agent.network().parameters().front().is_cuda() ? 1 : torch::get_num_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (int64_t u = 0; u < units; ++u) {
    try {
      c10::InferenceMode inference;  // thread-local: no autograd bookkeeping at all
      const int64_t k = u / per_chunk, view = u % per_chunk / strategies;
      const auto begin = k * chunk, end = std::min(begin + chunk, instances.count());
      const auto& strategy = decoding.strategies[u % strategies];
      candidates[k][u % per_chunk] = solve_view(agent, instances.slice(begin, end), decoding, view,
                                                per_rotation, strategy, generators[u]);
      bool last = false;
      {
        const std::lock_guard<std::mutex> lock(report);
        last = --unfinished[k] == 0;
      }
      if (!last) continue;
      // The chunk's best, over its candidates in a fixed order whichever thread ends it.
      parts[k] = best_of(candidates[k]);
      candidates[k].clear();
      const std::lock_guard<std::mutex> lock(report);
      if (on_chunk) on_chunk(end - begin);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(report);
      if (!failure) failure = std::current_exception();
    }
  }
  agent.network().train(was_training);
  if (failure) std::rethrow_exception(failure);
  const auto [actions, costs] = unzip(parts);
  return {torch::cat(actions, 0), torch::cat(costs, 0)};
}

torch::Tensor pad_columns(const torch::Tensor& actions, int64_t width) {
  if (actions.size(1) == width) return actions;
  return torch::constant_pad_nd(actions, {0, width - actions.size(1)}, 0);
}

int64_t device_chunk(Agent& agent, int64_t n, int64_t cpu_chunk) {
  if (agent.device().is_cpu()) return cpu_chunk;
  constexpr int64_t kScores = int64_t{16384} * 100 * 100;  // measured best at n = 100 on an H200
  return std::clamp<int64_t>(kScores / std::max<int64_t>(1, n * n), 1, 16384);
}

int64_t chunk_per_thread(int64_t count, int64_t cap) {
  const int64_t threads = torch::get_num_threads();
  return std::clamp<int64_t>((count + threads - 1) / threads, 1, cap);
}

}  // namespace eie
