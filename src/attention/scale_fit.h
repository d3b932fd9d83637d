#pragma once

// Fitting lambda(n) so that the expected attention entropy at n equals the one
// at the training length N with lambda = 1/sqrt(d): the exact roots (eie-exact)
// and the EIE paper's lambda-network (eie), stored together in a scale file.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "src/attention/entropy.h"
#include "src/attention/scale_network.h"

namespace eie {

struct ScaleFitOptions {
  int64_t epochs = 500;           // paper: 500
  int64_t batch = 256;            // sizes n_i per epoch (paper: 256)
  double lr = 1e-2;               // Adam, decayed x lr_decay per epoch (paper: 1e-3)
  double lr_decay = 0.99;         // paper: 0.99
  int64_t queries_per_size = 16;  // sampled queries per n_i in the loss
  bool regress_roots = false;     // fit the exact roots instead of the paper's entropy loss
  uint64_t seed = 0;              // sizes and queries of the loss
};

// Sizes where tables are reported: N * 2^k up to N_max and a geometric grid between.
[[nodiscard]] std::vector<int64_t> scale_grid(int64_t train_n, int64_t max_n);

// Exact roots lambda(n) with H(n, lambda) = H(N, 1/sqrt d) for each n of `grid`.
[[nodiscard]] std::vector<double> exact_scales(const EntropyEstimator& estimator, int64_t train_n,
                                               const std::vector<int64_t>& grid);

// Trains `network` on the paper's loss: mean over integers n_i in (N, N_max]
// (log-uniform) of
// (H(n_i, lambda(n_i)) - H(N, 1/sqrt d))^2; `on_epoch` gets (epoch, loss).
void fit_scale_network(ScaleNetwork& network, const EntropyEstimator& estimator,
                       const ScaleFitOptions& options, const std::vector<int64_t>& grid,
                       const std::vector<double>& exact,
                       const std::function<void(int64_t, double)>& on_epoch = {});

// Scale files (HDF5): the network, and the tables on `grid`.
void write_scale_file(const std::filesystem::path& path, ScaleNetwork& network,
                      const std::vector<int64_t>& grid, const std::vector<double>& exact);

struct ScaleFile {
  ScaleNetwork network{nullptr};  // lambda(n) of the EIE network
  std::vector<int64_t> grid;      // sizes of the exact table
  std::vector<double> exact;      // eie-exact roots on grid
};
[[nodiscard]] ScaleFile read_scale_file(const std::filesystem::path& path);

}  // namespace eie
