// Windowed against full attention at large n, on the encoder of a TSP attention
// model (random weights: speed and memory do not depend on them). Modes:
//   attention K   one multi-head attention layer (the first), K = 0: full
//   encoder K     the whole encoder (3 layers, nearest nodes included)
//   neighbours K  finding every node's K nearest nodes alone
//   naive         the attention product of one layer as standard implementations
//                 (and the Python reference) compute it: all B M n^2 scores at once
//   idle          model and instances only: the memory baseline
// Prints the median seconds of 5 runs after a warm-up, and the process's peak
// resident memory in MiB (run each mode in a fresh process to compare peaks).
// Run: experiments/window_speed.sh
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "policies/attention_model/attention_model.h"
#include "src/nn/neighbours.h"
#include "src/util/blas_kernels.h"

int main(int argc, char** argv) {
  eie::use_native_blas_kernels();  // as the eie binary does
  if (argc < 2) {
    std::fprintf(stderr, "usage: window_speed attention|encoder|neighbours|naive|idle [K] [n] [batch]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const int64_t K = argc > 2 ? std::stoll(argv[2]) : 0;
  const int64_t n = argc > 3 ? std::stoll(argv[3]) : 1600;
  const int64_t B = argc > 4 ? std::stoll(argv[4]) : 8;
  torch::manual_seed(1);
  torch::InferenceMode inference;
  eie::policy::AttentionModel model(eie::policy::AttentionModelOptions{});
  model->eval();
  const auto coords = torch::rand({B, n, 2});
  const auto h = model->init_embed(coords);
  const eie::AttentionSetting setting{0.25, K};
  const auto& shape = model->options().encoder;
  const auto q = torch::randn({B, shape.heads, n, shape.embed_dim / shape.heads});
  const auto k = torch::randn_like(q), v = torch::randn_like(q);
  const auto run = [&] {
    if (mode == "naive") {
      return torch::softmax(torch::matmul(q, k.transpose(-1, -2)) * setting.scale, -1).matmul(v);
    }
    const auto neighbours = K > 0 ? eie::nn::nearest_nodes(coords, K) : torch::Tensor();
    if (mode == "neighbours") return neighbours;
    if (mode == "attention") {
      return model->encoder->layers[0]->attention(h, setting,
                                                  eie::nn::NodeGeometry{coords, neighbours});
    }
    return model->encoder(h, std::vector<eie::AttentionSetting>(3, setting),
                          eie::nn::NodeGeometry{coords, neighbours});
  };
  double median = 0;
  if (mode != "idle") {
    (void)run();
    std::vector<double> seconds;
    for (int r = 0; r < 5; ++r) {
      const auto start = std::chrono::steady_clock::now();
      (void)run();
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    median = seconds[2];
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("%s K=%lld n=%lld B=%lld seconds=%.4f peak_mib=%.1f\n", mode.c_str(),
              static_cast<long long>(K), static_cast<long long>(n), static_cast<long long>(B),
              median, usage.ru_maxrss / 1024.0);
  return 0;
}
