#pragma once

#include <torch/torch.h>

namespace eie::nn {

// What copy_module_state does with a tensor of `to` that `from` lacks.
enum class NewState {
  refuse,  // identical architectures only: throw
  keep,    // keep its own value (a part added to a trained network, e.g. a distance bias)
};

// Copies every parameter and buffer of `from` into the same-named ones of `to`.
void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to,
                       NewState new_state = NewState::refuse);

}  // namespace eie::nn
