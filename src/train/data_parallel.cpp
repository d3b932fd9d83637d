#include "src/train/data_parallel.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "src/util/atomic_path.h"
#include "src/util/parse.h"
#include "src/util/seed_mix.h"

namespace eie {

torch::Tensor bytes_of(const std::string& data) {
  return torch::from_blob(const_cast<char*>(data.data()), {static_cast<int64_t>(data.size())},
                          torch::kByte)
      .clone();
}

void broadcast_state(torch::nn::Module& network, Collective& collective) {
  torch::NoGradGuard no_grad;
  for (auto p : network.parameters()) collective.broadcast(p);
  for (auto b : network.buffers()) collective.broadcast(b);
}

void average_gradients(torch::nn::Module& network, Collective& collective) {
  std::vector<torch::Tensor> trained;
  for (auto& p : network.parameters()) {
    if (!p.requires_grad()) continue;
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    trained.push_back(p);
  }
  if (trained.empty()) return;
  std::vector<torch::Tensor> flat;
  for (const auto& p : trained) flat.push_back(p.grad().reshape(-1));
  auto all = torch::cat(flat);
  collective.sum(all);
  all.div_(static_cast<double>(collective.size()));
  int64_t offset = 0;
  for (auto& p : trained) {
    p.mutable_grad().copy_(all.narrow(0, offset, p.numel()).view_as(p));
    offset += p.numel();
  }
}

void check_ranks_agree(torch::nn::Module& network, Collective& collective) {
  torch::NoGradGuard no_grad;
  double local = 0;
  for (const auto& p : network.parameters())
    local += p.to(torch::kDouble).abs().sum().item<double>();
  const double total = sum_over_ranks(local, &collective);
  const double expected = local * static_cast<double>(collective.size());
  if (std::abs(total - expected) > 1e-9 * std::abs(expected)) {
    throw std::runtime_error("rank " + std::to_string(collective.rank()) +
                             ": the ranks' parameters differ (a rank ran other code or "
                             "another model)");
  }
}

std::filesystem::path file_from_rank_zero(const std::filesystem::path& path,
                                          const std::filesystem::path& local,
                                          Collective& collective) {
  auto data = collective.rank() == 0 ? bytes_of(read_text(path)) : torch::Tensor();
  auto size = torch::tensor({collective.rank() == 0 ? data.numel() : int64_t{0}});
  collective.broadcast(size);
  if (collective.rank() != 0) data = torch::empty({size.item<int64_t>()}, torch::kByte);
  collective.broadcast(data);
  if (collective.rank() == 0) return path;
  std::filesystem::create_directories(local.parent_path());
  write_file(local, std::string(reinterpret_cast<const char*>(data.data_ptr()),
                                static_cast<size_t>(data.numel())));
  return local;
}

RankZeroFiles::RankZeroFiles(Collective* collective) : collective_(collective) {
  if (collective_) copies_.emplace("eie-rank");
}

std::filesystem::path RankZeroFiles::get(const std::filesystem::path& path) {
  if (!collective_) return path;
  return file_from_rank_zero(path, copies_->path() / path.filename(), *collective_);
}

uint64_t rank_seed(uint64_t seed, int64_t rank, int64_t epoch) {
  if (rank == 0 && epoch == 0) return seed;
  return splitmix64(seed + 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(rank + 1) +
                    0xBF58476D1CE4E5B9ULL * static_cast<uint64_t>(epoch));
}

}  // namespace eie
