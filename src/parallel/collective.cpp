#include "src/parallel/collective.h"

namespace eie {

Share share_of(int64_t count, const Collective* collective) {
  if (!collective) return {0, count};
  const auto bound = [&](int64_t rank) { return count * rank / collective->size(); };
  return {bound(collective->rank()), bound(collective->rank() + 1)};
}

double sum_over_ranks(double value, Collective* collective) {
  if (!collective) return value;
  auto total = torch::tensor({value}, torch::kDouble);
  collective->sum(total);
  return total.item<double>();
}

double mean_over_ranks(double value, Collective* collective) {
  return collective ? sum_over_ranks(value, collective) / static_cast<double>(collective->size())
                    : value;
}

double from_rank_zero(double value, Collective* collective) {
  if (!collective) return value;
  auto chosen = torch::tensor({value}, torch::kDouble);
  collective->broadcast(chosen);
  return chosen.item<double>();
}

torch::Tensor gather_rows(const torch::Tensor& part, Share share, int64_t count,
                          Collective* collective) {
  if (!collective) return part;
  auto sizes = part.sizes().vec();
  sizes[0] = count;
  auto whole = torch::zeros(sizes, part.options());
  whole.narrow(0, share.begin, share.size()).copy_(part);
  collective->sum(whole);
  return whole;
}

}  // namespace eie
