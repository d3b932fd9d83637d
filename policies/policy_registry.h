#pragma once

#include <filesystem>
#include <memory>

#include "decode/agent.h"
#include "nn/encoder.h"

namespace eie {

struct NetworkOptions {
  nn::EncoderOptions encoder;  // sizes of the attention encoder
  double tanh_clip = 10.0;     // pointer logit clipping
};

// A fresh, randomly initialised agent for `problem`, trained at size train_n.
[[nodiscard]] std::unique_ptr<Agent> make_agent(std::shared_ptr<const Problem> problem,
                                                const NetworkOptions& options, int64_t train_n);

// The network sizes recorded in a model or checkpoint file.
[[nodiscard]] NetworkOptions network_options_of(const std::filesystem::path& path);

// The agent stored in an eie model or checkpoint file, bound to `problem`; throws
// if the file was made for another problem or another format version.
[[nodiscard]] std::unique_ptr<Agent> load_agent(const std::filesystem::path& path,
                                                std::shared_ptr<const Problem> problem);

}  // namespace eie
