#include "src/nn/module_state.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "src/util/fnv1a.h"

namespace eie::nn {

namespace {
void copy_named(const torch::OrderedDict<std::string, torch::Tensor>& from,
                torch::OrderedDict<std::string, torch::Tensor> to, NewState new_state) {
  for (auto& item : to) {
    const auto* source = from.find(item.key());
    if (source) {
      item.value().copy_(*source);
    } else if (new_state == NewState::refuse) {
      throw std::invalid_argument("copy_module_state: the source has no '" + item.key() + "'");
    }
  }
}

uint64_t hash_named(uint64_t hash, const torch::OrderedDict<std::string, torch::Tensor>& tensors) {
  for (const auto& item : tensors) {
    hash = fnv1a(hash, item.key().data(), item.key().size());
    const auto values = item.value().detach().to(torch::kCPU, torch::kFloat).contiguous();
    hash = fnv1a(hash, values.data_ptr(), values.numel() * sizeof(float));
  }
  return hash;
}
}  // namespace

std::string module_fingerprint(const torch::nn::Module& module) {
  const uint64_t hash =
      hash_named(hash_named(kFnvOffset, module.named_parameters()), module.named_buffers());
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, hash);
  return text;
}

void match_placement(const torch::nn::Module& like, torch::nn::Module& module) {
  const auto parameters = like.parameters();
  if (parameters.empty()) return;
  module.to(parameters.front().device(), parameters.front().scalar_type());
}

void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to, NewState new_state) {
  torch::NoGradGuard no_grad;
  copy_named(from.named_parameters(), to.named_parameters(), new_state);
  copy_named(from.named_buffers(), to.named_buffers(), new_state);
}

}  // namespace eie::nn
