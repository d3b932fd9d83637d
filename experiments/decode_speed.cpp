// Decoding speed of a model on a batch of fresh instances, on the CPU or a GPU: the
// counterpart of `ref_am.py infer` (experiments/gpu_speed.sh runs both). Two warm-up
// batches, then REPS timed batches (each ends when the device has finished it).
// Prints one JSON object: instances per second and the mean cost.
// Run: build/experiments/decode_speed PROBLEM MODEL N BATCH [DEVICE [REPS [DECODE [PRECISION
//   [THREADS]]]]]   DEVICE cpu|cuda, DECODE as eie solve --decode (default greedy),
//   PRECISION float32|tf32, THREADS on the CPU (default 2: chunks decoded in parallel)
#include <omp.h>
#include <torch/cuda.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "src/agent/model_file.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "src/util/blas_kernels.h"

int main(int argc, char** argv) {
  using namespace eie;
  use_native_blas_kernels();  // as the eie binary does
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: decode_speed PROBLEM MODEL N BATCH [DEVICE [REPS [DECODE "
                 "[PRECISION [THREADS]]]]]\n");
    return 2;
  }
  const std::string model = argv[2];
  const int64_t n = std::stoll(argv[3]), batch = std::stoll(argv[4]);
  const torch::Device device(argc > 5 ? argv[5] : "cpu");
  const int reps = argc > 6 ? std::stoi(argv[6]) : 3;
  const auto decoding = parse_decoding(argc > 7 ? argv[7] : "greedy");
  const bool tf32 = argc > 8 && std::string(argv[8]) == "tf32";
  const int threads = argc > 9 ? std::stoi(argv[9]) : 2;
  torch::set_num_threads(threads);
  omp_set_num_threads(threads);
  at::globalContext().setAllowTF32CuBLAS(tf32);
  at::globalContext().setAllowTF32CuDNN(tf32);
  const auto problem = make_problem(argv[1]);
  auto agent = load_agent(model, problem);
  agent->network().to(device);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(1);
  const auto finish = [&] {
    if (device.is_cuda()) torch::cuda::synchronize();
  };
  double seconds = 0, cost = 0;
  // Two batches warm up: on a GPU the first runs step by step, the second is captured
  // as a CUDA graph (src/agent/graphed_rollouts.h) that later batches replay.
  for (int rep = -2; rep < reps; ++rep) {
    const auto instances = problem->generate(batch, n, generator).to(device);
    finish();
    const auto start = std::chrono::steady_clock::now();
    // A GPU decodes the batch at once; CPU threads a chunk each (as eie solve does).
    const int64_t chunk = device.is_cuda() ? batch : chunk_per_thread(batch, batch);
    const auto solutions = solve(*agent, instances, decoding, chunk, generator);
    finish();
    if (rep < 0) continue;  // warm-up
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cost += solutions.cost.mean().item<double>();
  }
  std::printf(
      "{\"problem\": \"%s\", \"n\": %lld, \"batch\": %lld, \"device\": \"%s\", "
      "\"instances_per_s\": %.1f, \"mean_cost\": %.5f}\n",
      problem->name().c_str(), static_cast<long long>(n), static_cast<long long>(batch),
      device.str().c_str(), static_cast<double>(batch) * reps / seconds, cost / reps);
  return 0;
}
