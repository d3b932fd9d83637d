#pragma once

#include <torch/torch.h>

#include <string>

namespace eie::nn {

// What copy_module_state does with a tensor of `to` that `from` lacks.
enum class NewState {
  refuse,  // identical architectures only: throw
  keep,    // keep its own value (a part added to a trained network, e.g. a distance bias)
};

// Copies every parameter and buffer of `from` into the same-named ones of `to`.
// Moves `module` to the device and floating type of `like`'s parameters (before a
// copy_module_state from it: a clone lives where its original does).
void match_placement(const torch::nn::Module& like, torch::nn::Module& module);

void copy_module_state(const torch::nn::Module& from, torch::nn::Module& to,
                       NewState new_state = NewState::refuse);

// 16 hex digits that change with any parameter or buffer of `module` (names and float32
// values, FNV-1a): what a file computed from one network (a calibration table) records,
// so that it is never applied to another.
[[nodiscard]] std::string module_fingerprint(const torch::nn::Module& module);

}  // namespace eie::nn
