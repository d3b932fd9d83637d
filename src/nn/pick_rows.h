#pragma once

// Rows of a per-instance table picked by index, with its own backward, on the CPU:
//   out[b, t] = table[b, index[b, t]]
// The decoder's step context takes a node embedding per trajectory and step this way.
// LibTorch's gather reads an index per element (E of them per row) and its backward
// scatters element by element; whole rows copied and added cost a fraction of that
// (results/speed.md, "Row gather and sampler").

#include <torch/torch.h>

namespace eie::nn {

// table [B, n, E] (float or double; other types and devices fall back to gather),
// index [B, T] int64 in [0, n): [B, T, E]. Gradients flow to the table.
[[nodiscard]] torch::Tensor pick_rows(const torch::Tensor& table, const torch::Tensor& index);

}  // namespace eie::nn
