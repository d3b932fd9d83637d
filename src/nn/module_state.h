#pragma once

#include <torch/torch.h>

namespace eie::nn {

// Copies every parameter and buffer of `from` into the same-named ones of `to`
// (identical architectures); throws if `to` has a tensor `from` lacks.
void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to);

}  // namespace eie::nn
