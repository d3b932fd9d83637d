#pragma once

// The distance bias of attention scores (scores lose beta * d_ij), in every layer
// that attends over nodes with positions: encoder, glimpse and pointer.

#include <torch/torch.h>

#include <string>

#include "src/attention/setting.h"

namespace eie::nn {

// Where the nodes are, for layers that look at it: positions [B, n, 2] for a
// distance bias, neighbours [B, n, >= K] (nearest_nodes) for a window of K. Either
// may be undefined when nothing needs it.
struct NodeGeometry {
  torch::Tensor positions;
  torch::Tensor neighbours;
};

// A distance bias trained into a network: per-head betas in every attention layer,
// learned, or held at their initial value.
struct TrainedBiasOptions {
  bool enabled = false;
  double encoder_init = 0;  // the betas' values at initialisation, per part
  double glimpse_init = 0;
  double pointer_init = 0;
  bool learn = false;  // whether the optimiser moves them
  // How the betas follow the instance size n, in training (a size curriculum) and as
  // trained at inference: fixed, logn or sqrtn (the betas x bias_growth(growth, n, N)).
  std::string growth = "fixed";
};

// The names networks register trained betas under: an encoder attention layer's, the
// routing decoder's glimpse and pointer.
inline constexpr char kEncoderBetas[] = "distance_bias";
inline constexpr char kGlimpseBetas[] = "glimpse_bias";
inline constexpr char kPointerBetas[] = "pointer_bias";

// Whether a network parameter of this name (as named_parameters() gives it) is a trained
// distance beta: the trainer gives them their own learning rate.
[[nodiscard]] bool is_trained_beta(const std::string& parameter_name);

// The per-head betas [heads] of a layer whose trained betas are `trained` ([heads],
// or undefined when it has none) under `bias`; undefined when no bias applies.
[[nodiscard]] torch::Tensor head_betas(const DistanceBias& bias, const torch::Tensor& trained,
                                       int64_t heads, const torch::TensorOptions& options);

// Euclidean distances [B, r, n] from points [B, r, 2] to points [B, n, 2].
[[nodiscard]] torch::Tensor distances(const torch::Tensor& from, const torch::Tensor& to);

// Distances [B, n, K] from every node of `positions` [B, n, 2] to its neighbours
// [B, n, K] (windows).
[[nodiscard]] torch::Tensor distances_to(const torch::Tensor& positions,
                                         const torch::Tensor& neighbours);

// Distances [B, n] from the node `current` [B] of every row to every node of
// `positions` [B, n, 2].
[[nodiscard]] torch::Tensor distances_from(const torch::Tensor& positions,
                                           const torch::Tensor& current);

// What a layer subtracts from its scores: beta[m] * distance for head m.
struct ScoreBias {
  torch::Tensor beta;      // [M]; undefined: no bias
  torch::Tensor distance;  // [B, ..., n], the layer's rows of distances
  [[nodiscard]] bool applies() const { return beta.defined(); }
  // The bias for scores laid out [B, M, ..., n] (heads second).
  [[nodiscard]] torch::Tensor offsets() const;
};

}  // namespace eie::nn
