#include "src/nn/module_state.h"

#include <stdexcept>

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
}  // namespace

void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to, NewState new_state) {
  torch::NoGradGuard no_grad;
  copy_named(from.named_parameters(), to.named_parameters(), new_state);
  copy_named(from.named_buffers(), to.named_buffers(), new_state);
}

}  // namespace eie::nn
