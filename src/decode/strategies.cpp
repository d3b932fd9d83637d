#include "decode/strategies.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <stdexcept>

#include "util/parse.h"

namespace eie {

Decoding parse_decoding(const std::string& text) {
  if (text == "greedy") return {Decoding::Kind::greedy, 1};
  if (text == "aug8") return {Decoding::Kind::aug8, 8};
  if (text.rfind("sample:", 0) == 0) {
    const auto k = parse_int(text.substr(7), "--decode sample:K");
    if (k < 1)
      throw std::invalid_argument("--decode sample:K needs K >= 1, got " + std::to_string(k));
    return {Decoding::Kind::sample, k};
  }
  throw std::invalid_argument("--decode: expected greedy, sample:K or aug8, got '" + text + "'");
}

namespace {

torch::Tensor pad_columns(const torch::Tensor& actions, int64_t width) {
  if (actions.size(1) == width) return actions;
  return torch::constant_pad_nd(actions, {0, width - actions.size(1)}, 0);
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

Solutions solve_chunk(Agent& agent, const Instances& chunk, const Decoding& decoding,
                      torch::Generator& generator) {
  switch (decoding.kind) {
    case Decoding::Kind::greedy: {
      const auto t = agent.rollout(chunk, Selection::greedy, std::nullopt);
      return {t.actions, t.cost};
    }
    case Decoding::Kind::sample: {
      const int64_t B = chunk.count(), K = decoding.samples;
      const auto t = agent.rollout(chunk.repeat_each(K), Selection::sample, generator);
      const auto costs = t.cost.view({B, K});
      const auto best = costs.argmin(1) + torch::arange(B) * K;
      return {t.actions.index_select(0, best), t.cost.index_select(0, best)};
    }
    case Decoding::Kind::aug8: {
      std::vector<Solutions> candidates;
      for (const auto& variant : agent.problem().symmetries(chunk)) {
        const auto t = agent.rollout(variant, Selection::greedy, std::nullopt);
        candidates.push_back({t.actions, t.cost});
      }
      return best_of(candidates);
    }
  }
  throw std::logic_error("unhandled decoding kind");
}

}  // namespace

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
  const int64_t chunks = (instances.count() + chunk - 1) / chunk;
  // One generator per chunk, seeded in order: samples do not depend on the thread count.
  std::vector<torch::Generator> generators;
  for (int64_t k = 0; k < chunks; ++k) {
    generators.push_back(at::make_generator<at::CPUGeneratorImpl>(
        generator.get<at::CPUGeneratorImpl>()->random64()));
  }
  // Chunks decode in parallel, one thread each: a decode step is many small ops
  // that intra-op threads slow down. Inside an OpenMP region ATen and OpenBLAS run
  // every op on the calling thread, so a single chunk runs in the region too: with
  // intra-op threads one packing of n = 1600 took 4.4-6.1 s on 2 threads, 1.5 s on one
  // (`eie gen --problem bpp3d --n 1600 --count 1 --seed 2`, `eie solve --dataset`).
  std::vector<Solutions> parts(chunks);
  std::exception_ptr failure;
  std::mutex report;
  const int threads = agent.network().parameters().front().is_cuda() ? 1 : torch::get_num_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (int64_t k = 0; k < chunks; ++k) {
    try {
      c10::InferenceMode inference;  // thread-local: no autograd bookkeeping at all
      const auto begin = k * chunk, end = std::min(begin + chunk, instances.count());
      parts[k] = solve_chunk(agent, instances.slice(begin, end), decoding, generators[k]);
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

int64_t chunk_per_thread(int64_t count, int64_t cap) {
  const int64_t threads = torch::get_num_threads();
  return std::clamp<int64_t>((count + threads - 1) / threads, 1, cap);
}

}  // namespace eie
