#pragma once

// The layout of model files and training checkpoints: HDF5 with the network under
// "model/", and root attributes that say how to rebuild it (problem, policy, sizes, N).

#include <torch/torch.h>

#include <map>
#include <string>

#include "src/io/h5_file.h"

namespace eie {

inline constexpr int64_t kFormatVersion = 1;

// Every parameter and buffer of `module`, one dataset each under `group`.
void write_module(h5::Writer& writer, const std::string& group, const torch::nn::Module& module);
// Fills every parameter and buffer of `module`; missing or mis-shaped ones throw.
void read_module(const h5::Reader& reader, const std::string& group, torch::nn::Module& module);

// Root attributes plus format_version and kind ("model" or "checkpoint").
void write_spec(h5::Writer& writer, const Attributes& spec, const std::string& kind);
// Throws unless the file is an eie model or checkpoint of this format version.
void check_format(const h5::Reader& reader);

}  // namespace eie
