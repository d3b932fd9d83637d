#include "src/nn/window_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace eie::nn {

void grid_nearest(const float* xy, int64_t n, int64_t k, int64_t* out) {
  float lo_x = xy[0], hi_x = xy[0], lo_y = xy[1], hi_y = xy[1];
  for (int64_t i = 1; i < n; ++i) {
    lo_x = std::min(lo_x, xy[2 * i]), hi_x = std::max(hi_x, xy[2 * i]);
    lo_y = std::min(lo_y, xy[2 * i + 1]), hi_y = std::max(hi_y, xy[2 * i + 1]);
  }
  const double extent = std::max({double(hi_x) - lo_x, double(hi_y) - lo_y, 1e-12});
  const auto side = static_cast<int64_t>(
      std::max(1.0, std::floor(std::sqrt(double(n) / std::max<double>(1, k / 4.0)))));
  const double cell = extent / double(side) * (1 + 1e-9);  // the top edge stays inside
  const auto cell_of = [&](double value, float low) {
    return std::min(side - 1, static_cast<int64_t>((value - low) / cell));
  };
  // Points by cell (counting sort): members of cell c are order[start[c] .. start[c+1]).
  std::vector<int64_t> start(side * side + 1, 0), order(n), home(n);
  for (int64_t i = 0; i < n; ++i) {
    home[i] = cell_of(xy[2 * i + 1], lo_y) * side + cell_of(xy[2 * i], lo_x);
    ++start[home[i] + 1];
  }
  for (int64_t c = 0; c < side * side; ++c) start[c + 1] += start[c];
  std::vector<int64_t> fill(start.begin(), start.end() - 1);
  for (int64_t i = 0; i < n; ++i) order[fill[home[i]]++] = i;

  constexpr double kFar = std::numeric_limits<double>::infinity();
#pragma omp parallel
  {
    std::vector<std::pair<double, int64_t>> found;  // (squared distance, index)
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      found.clear();
      const double x = xy[2 * i], y = xy[2 * i + 1];
      const int64_t cx = home[i] % side, cy = home[i] / side;
      for (int64_t ring = 0; ring < side; ++ring) {
        for (int64_t gy = cy - ring; gy <= cy + ring; ++gy) {
          if (gy < 0 || gy >= side) continue;
          const bool edge_row = gy == cy - ring || gy == cy + ring;
          for (int64_t gx = cx - ring; gx <= cx + ring; gx += edge_row ? 1 : 2 * ring) {
            if (gx >= 0 && gx < side) {
              const int64_t c = gy * side + gx;
              for (int64_t p = start[c]; p < start[c + 1]; ++p) {
                const int64_t j = order[p];
                const double dx = xy[2 * j] - x, dy = xy[2 * j + 1] - y;
                found.emplace_back(dx * dx + dy * dy, j);
              }
            }
            if (ring == 0) break;
          }
        }
        // Points outside the searched block of cells are at least as far as the
        // block's nearest open side (sides at the grid's edge have none beyond).
        if (static_cast<int64_t>(found.size()) >= k) {
          std::nth_element(found.begin(), found.begin() + (k - 1), found.end());
          // Less a margin for rounding in the cell assignment; never negative.
          const double reach = std::max(0.0, std::min({
              cx - ring > 0 ? x - (lo_x + double(cx - ring) * cell) : kFar,
              cx + ring < side - 1 ? lo_x + double(cx + ring + 1) * cell - x : kFar,
              cy - ring > 0 ? y - (lo_y + double(cy - ring) * cell) : kFar,
              cy + ring < side - 1 ? lo_y + double(cy + ring + 1) * cell - y : kFar}) -
              1e-12 * extent);
          if (reach >= kFar || found[k - 1].first < reach * reach) break;
        }
      }
      // The last ring's nth_element left the k nearest in front.
      std::sort(found.begin(), found.begin() + k);
      for (int64_t j = 0; j < k; ++j) out[i * k + j] = found[j].second;
    }
  }
}

void windowed_attention_rows(const float* q, const float* k, const float* v,
                             const int64_t* neighbours, int64_t n, int64_t M, int64_t d,
                             int64_t K, float scale, float* out, const float* distance,
                             const float* beta) {
  const int64_t E = M * d;
#pragma omp parallel
  {
    std::vector<float> weight(K);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t* near = neighbours + i * K;
      for (int64_t m = 0; m < M; ++m) {
        const float* qi = q + i * E + m * d;
        float top = -std::numeric_limits<float>::infinity();
        for (int64_t j = 0; j < K; ++j) {
          const float* kj = k + near[j] * E + m * d;
          float dot = 0;
          for (int64_t c = 0; c < d; ++c) dot += qi[c] * kj[c];
          weight[j] = dot * scale - (distance ? beta[m] * distance[i * K + j] : 0.0f);
          top = std::max(top, weight[j]);
        }
        float total = 0;
        for (int64_t j = 0; j < K; ++j) total += (weight[j] = std::exp(weight[j] - top));
        float* o = out + i * E + m * d;
        std::fill(o, o + d, 0.0f);
        for (int64_t j = 0; j < K; ++j) {
          const float* vj = v + near[j] * E + m * d;
          const float w = weight[j] / total;
          for (int64_t c = 0; c < d; ++c) o[c] += w * vj[c];
        }
      }
    }
  }
}

}  // namespace eie::nn
