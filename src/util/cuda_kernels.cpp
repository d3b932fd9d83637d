#include "src/util/cuda_kernels.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace eie {

bool cuda_kernels_enabled() {
  static const bool off = [] {
    const char* value = std::getenv("EIE_CUDA_KERNELS");
    return value && std::string(value) == "0";
  }();
  return !off;
}

void launch_cuda_kernel(const torch::Tensor& on, const char* kernel,
                        const std::function<int(void*)>& launch) {
  const c10::cuda::CUDAGuard device(on.device());
  const int error = launch(c10::cuda::getCurrentCUDAStream(on.device().index()).stream());
  if (error != 0) {
    throw std::runtime_error(std::string(kernel) +
                             " kernel: " + cudaGetErrorString(static_cast<cudaError_t>(error)));
  }
}

}  // namespace eie
