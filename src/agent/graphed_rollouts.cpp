#include "src/agent/graphed_rollouts.h"

#ifdef EIE_CUDA_GRAPHS
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/cuda.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>
#endif

namespace eie {

struct GraphedRollouts::Shape {
  int64_t batches = 0;  // batches of this shape run so far
  bool failed = false;  // its capture failed: every batch runs as it is
#ifdef EIE_CUDA_GRAPHS
  std::unique_ptr<at::cuda::CUDAGraph> graph;
  Instances input;         // the buffers the graph reads ...
  Trajectory output;       // ... and writes
  torch::Tensor uniforms;  // a sampled rollout's: [steps, rows] on the device, read too
  torch::Tensor drawn;     // ... drawn into pinned host memory first
#endif
};

GraphedRollouts::GraphedRollouts() = default;
GraphedRollouts::~GraphedRollouts() = default;

void GraphedRollouts::clear() { shapes_.clear(); }

#ifndef EIE_CUDA_GRAPHS

Trajectory GraphedRollouts::run(const Instances& instances, const Rollout& rollout, bool,
                                std::optional<torch::Generator>) {
  return rollout(instances);
}

#else

namespace {

// A batch's shape: every field's name, type, device and sizes.
std::string shape_key(const Instances& instances) {
  std::string key;
  for (const auto& [name, t] : instances.fields()) {
    key += name + ' ' + c10::toString(t.scalar_type()) + ' ' + t.device().str();
    for (const auto size : t.sizes()) key += ' ' + std::to_string(size);
    key += ';';
  }
  return key;
}

}  // namespace

bool GraphedRollouts::capture(Shape& shape, const Instances& instances, const Rollout& rollout,
                              bool sampled) {
  std::map<std::string, torch::Tensor> buffers;
  for (const auto& [name, t] : instances.fields()) buffers[name] = t.clone();
  shape.input = Instances(buffers);
  shape.graph = std::make_unique<at::cuda::CUDAGraph>();
  torch::cuda::synchronize();  // the capture's stream starts after everything queued
  try {
    const c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool());
    // Once step by step on the capture's stream first: libraries that keep state per
    // stream (cuBLAS's workspace) set it up outside the capture. It draws nothing from
    // the generator; a sampled rollout learns there how many uniforms it reads.
    {
      const UniformsGiven warm_up;
      const auto t = rollout(shape.input);
      if (sampled) {
        const std::vector<int64_t> sizes{t.actions.size(1), t.actions.size(0)};  // step, row
        shape.uniforms = torch::full(sizes, 0.5, t.step_log_probs.options());
        shape.drawn =
            torch::empty(sizes, shape.uniforms.options().device(torch::kCPU).pinned_memory(true));
      }
    }
    const HostChecksDeferred deferred;
    const UniformsGiven given(shape.uniforms);
    shape.graph->capture_begin();
    try {
      shape.output = rollout(shape.input);
      if (sampled && given.used() != shape.uniforms.size(0)) {
        throw std::runtime_error("the rollout sampled " + std::to_string(given.used()) +
                                 " of its " + std::to_string(shape.uniforms.size(0)) + " steps");
      }
    } catch (...) {
      try {
        shape.graph->capture_end();
      } catch (...) {  // the capture's own error says less than the step's
      }
      throw;
    }
    shape.graph->capture_end();
    return true;
  } catch (const std::exception& e) {
    (void)cudaGetLastError();  // clears the capture's error for the eager run that follows
    const std::string what = e.what();
    std::fprintf(stderr,
                 "eie: note: %s rollouts of this shape run step by step, their capture as a "
                 "CUDA graph failed (%s)\n",
                 sampled ? "sampled" : "greedy", what.substr(0, what.find('\n')).c_str());
    shape.graph.reset();
    shape.input = {};
    shape.output = {};
    shape.uniforms = shape.drawn = torch::Tensor();
    return false;
  }
}

Trajectory GraphedRollouts::run(const Instances& instances, const Rollout& rollout, bool sampled,
                                std::optional<torch::Generator> generator) {
  static const bool off = [] {  // EIE_CUDA_GRAPHS=0: step by step, to compare
    const char* value = std::getenv("EIE_CUDA_GRAPHS");
    return value && std::string(value) == "0";
  }();
  if (off || instances.fields().empty() || !instances.fields().begin()->second.is_cuda()) {
    return rollout(instances);
  }
  auto& shape = shapes_[shape_key(instances) + (sampled ? "sampled" : "greedy")];
  if (!shape) shape = std::make_unique<Shape>();
  if (shape->failed || ++shape->batches == 1) return rollout(instances);
  if (!shape->graph && !capture(*shape, instances, rollout, sampled)) {
    shape->failed = true;
    return rollout(instances);
  }
  {
    const c10::InferenceMode inference;  // the buffers may be inference tensors
    for (const auto& [name, buffer] : shape->input.fields()) buffer.copy_(instances.at(name));
    if (sampled) {  // the last replay's copy is done: its trajectory was checked below
      shape->drawn.uniform_(0, 1,
                            generator ? c10::optional<torch::Generator>(*generator) : c10::nullopt);
      shape->uniforms.copy_(shape->drawn, /*non_blocking=*/true);
    }
  }
  shape->graph->replay();
  throw_if_not_finite(shape->output.step_log_probs);
  const auto& out = shape->output;  // the next replay overwrites it
  return {out.actions.clone(), out.log_likelihood.clone(), out.cost.clone(),
          out.step_log_probs.clone()};
}

#endif

}  // namespace eie
