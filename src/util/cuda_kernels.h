#pragma once

// What the wrappers of eie's own CUDA kernels (src/*/cuda/*.cu) share: whether the
// kernels run, and their launch on the tensors' device and stream. Built only with the
// kernels (-DEIE_CUDA_KERNELS, against a CUDA LibTorch, with nvcc).

#include <torch/torch.h>

#include <functional>

namespace eie {

// Whether eie's kernels run: unless EIE_CUDA_KERNELS=0 in the environment (LibTorch's
// ops then, to compare).
[[nodiscard]] bool cuda_kernels_enabled();

// Calls `launch` with the current CUDA stream (a cudaStream_t) of the device of `on`,
// that device current, so that the kernel queues behind LibTorch's work there (and a
// CUDA graph being captured records it); throws std::runtime_error naming `kernel` if
// `launch` returns a CUDA error (not 0).
void launch_cuda_kernel(const torch::Tensor& on, const char* kernel,
                        const std::function<int(void* stream)>& launch);

}  // namespace eie
