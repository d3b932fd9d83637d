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
#endif

namespace eie {

struct GraphedRollouts::Shape {
  int64_t batches = 0;  // batches of this shape run so far
  bool failed = false;  // its capture failed: every batch runs as it is
#ifdef EIE_CUDA_GRAPHS
  std::unique_ptr<at::cuda::CUDAGraph> graph;
  Instances input;    // the buffers the graph reads ...
  Trajectory output;  // ... and writes
#endif
};

GraphedRollouts::GraphedRollouts() = default;
GraphedRollouts::~GraphedRollouts() = default;

void GraphedRollouts::clear() { shapes_.clear(); }

#ifndef EIE_CUDA_GRAPHS

Trajectory GraphedRollouts::run(const Instances& instances, const Rollout& rollout) {
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

bool GraphedRollouts::capture(Shape& shape, const Instances& instances, const Rollout& rollout) {
  std::map<std::string, torch::Tensor> buffers;
  for (const auto& [name, t] : instances.fields()) buffers[name] = t.clone();
  shape.input = Instances(buffers);
  shape.graph = std::make_unique<at::cuda::CUDAGraph>();
  torch::cuda::synchronize();  // the capture's stream starts after everything queued
  try {
    const c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool());
    // Once step by step on the capture's stream first: libraries that keep state per
    // stream (cuBLAS's workspace) set it up outside the capture.
    (void)rollout(shape.input);
    const HostChecksDeferred deferred;
    shape.graph->capture_begin();
    try {
      shape.output = rollout(shape.input);
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
                 "eie: note: greedy rollouts of this shape run step by step, their capture as a "
                 "CUDA graph failed (%s)\n",
                 what.substr(0, what.find('\n')).c_str());
    shape.graph.reset();
    shape.input = {};
    shape.output = {};
    return false;
  }
}

Trajectory GraphedRollouts::run(const Instances& instances, const Rollout& rollout) {
  static const bool off = [] {  // EIE_CUDA_GRAPHS=0: step by step, to compare
    const char* value = std::getenv("EIE_CUDA_GRAPHS");
    return value && std::string(value) == "0";
  }();
  if (off || instances.fields().empty() || !instances.fields().begin()->second.is_cuda()) {
    return rollout(instances);
  }
  auto& shape = shapes_[shape_key(instances)];
  if (!shape) shape = std::make_unique<Shape>();
  if (shape->failed || ++shape->batches == 1) return rollout(instances);
  if (!shape->graph && !capture(*shape, instances, rollout)) {
    shape->failed = true;
    return rollout(instances);
  }
  {
    const c10::InferenceMode inference;  // the buffers may be inference tensors
    for (const auto& [name, buffer] : shape->input.fields()) buffer.copy_(instances.at(name));
  }
  shape->graph->replay();
  throw_if_not_finite(shape->output.step_log_probs);
  const auto& out = shape->output;  // the next replay overwrites it
  return {out.actions.clone(), out.log_likelihood.clone(), out.cost.clone(),
          out.step_log_probs.clone()};
}

#endif

}  // namespace eie
