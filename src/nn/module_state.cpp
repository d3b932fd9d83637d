#include "src/nn/module_state.h"

namespace eie::nn {

void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to) {
  torch::NoGradGuard no_grad;
  const auto params = from.named_parameters();
  for (auto& p : to.named_parameters()) p.value().copy_(params[p.key()]);
  const auto buffers = from.named_buffers();
  for (auto& b : to.named_buffers()) b.value().copy_(buffers[b.key()]);
}

}  // namespace eie::nn
