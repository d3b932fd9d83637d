#include "src/nn/batch_statistics.h"

namespace eie::nn {
namespace {

thread_local Collective* active_collective = nullptr;

// Sum over ranks that autograd differentiates: the gradient of a sum over ranks is
// the sum over ranks of the gradients.
struct SumOverRanks : torch::autograd::Function<SumOverRanks> {
  static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& x,
                               Collective* collective) {
    context->saved_data["collective"] = reinterpret_cast<int64_t>(collective);
    auto total = x.detach().clone();
    collective->sum(total);
    return total;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    auto* collective = reinterpret_cast<Collective*>(context->saved_data["collective"].toInt());
    auto total = gradients[0].contiguous().clone();
    collective->sum(total);
    return {total, torch::Tensor()};
  }
};

torch::Tensor sum_over_ranks(const torch::Tensor& x, Collective& collective) {
  return SumOverRanks::apply(x, &collective);
}

}  // namespace

SyncBatchStatistics::SyncBatchStatistics(Collective& collective) : previous_(active_collective) {
  active_collective = &collective;
}

SyncBatchStatistics::~SyncBatchStatistics() { active_collective = previous_; }

Collective* SyncBatchStatistics::active() { return active_collective; }

torch::Tensor synced_batch_norm(const torch::Tensor& x, torch::nn::BatchNorm1dImpl& norm,
                                Collective& collective) {
  // Two passes, as a single process's batch norm: the mean, then the squared deviations.
  const auto count = sum_over_ranks(torch::full({1}, x.size(0), x.options()), collective);
  const auto mean = sum_over_ranks(x.sum(0), collective) / count;
  const auto centred = x - mean;
  const auto variance = sum_over_ranks(centred.pow(2).sum(0), collective) / count;
  const auto& o = norm.options;
  {
    torch::NoGradGuard no_grad;
    const double momentum = o.momentum().value();
    const auto n = count.item<double>();
    norm.running_mean.mul_(1 - momentum).add_(mean.detach(), momentum);
    norm.running_var.mul_(1 - momentum)
        .add_(variance.detach() * (n / std::max(1.0, n - 1)), momentum);
    norm.num_batches_tracked.add_(1);
  }
  return centred / torch::sqrt(variance + o.eps()) * norm.weight + norm.bias;
}

}  // namespace eie::nn
