#pragma once

// Pure C++ kernels behind windowed attention at inference (no LibTorch): the k
// nearest points by a uniform grid, and attention over given neighbour lists.

#include <cstdint>

namespace eie::nn {

// The k nearest of n points xy [n, 2] for every point, nearest first, exact
// distance ties by index: out [n, k]. A uniform grid over
// the bounding box holding about k/4 points per cell; each point searches rings
// of cells until no unseen cell can hold a nearer point: O(n k log k) for
// spread-out points. Requires 1 <= k <= n.
void grid_nearest(const float* xy, int64_t n, int64_t k, int64_t* out);

// Attention of every node over its K neighbours, all heads: q, k, v node-major
// [n, M, d], neighbours [n, K], out [n, M, d]; scores = scale * q.k, less
// beta[m] * distance[i, j] when `distance` [n, K] and `beta` [M] are given (else null).
// OpenMP over nodes.
void windowed_attention_rows(const float* q, const float* k, const float* v,
                             const int64_t* neighbours, int64_t n, int64_t M, int64_t d,
                             int64_t K, float scale, float* out, const float* distance = nullptr,
                             const float* beta = nullptr);

}  // namespace eie::nn
