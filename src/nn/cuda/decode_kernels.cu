// Launches of the decode step's kernels (decode_kernels.cuh).
#include <cuda_runtime.h>

#define EIE_SHARED_BYTES(name) extern __shared__ __align__(sizeof(double)) unsigned char name[]
#include "src/nn/cuda/decode_kernels.cuh"
#include "src/nn/cuda/decode_kernels.h"

namespace eie::nn::cuda {

namespace {

using namespace device;

template <typename T, int D>
int launch_glimpse(const GlimpseArgs& a, cudaStream_t stream) {
  const int threads = threads_for(a.n), warps = threads / 32;
  const size_t shared = sizeof(T) * warps * (D + 2);
  glimpse_kernel<T, D><<<static_cast<unsigned>(a.B * a.group * a.M), threads, shared, stream>>>(
      static_cast<const T*>(a.keys), static_cast<const T*>(a.values),
      static_cast<const T*>(a.query), a.masked, static_cast<const T*>(a.beta),
      static_cast<const T*>(a.distance), static_cast<T*>(a.out), a.group, a.M, a.n,
      static_cast<T>(a.scale));
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int glimpse(const GlimpseArgs& a, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  switch (a.d) {
    case 8:
      return launch_glimpse<T, 8>(a, s);
    case 16:
      return launch_glimpse<T, 16>(a, s);
    case 32:
      return launch_glimpse<T, 32>(a, s);
    case 64:
      return launch_glimpse<T, 64>(a, s);
    default:
      return static_cast<int>(cudaErrorInvalidValue);
  }
}

template <typename T>
int pointer(const PointerArgs& a, void* stream) {
  const int threads = threads_for(a.n);
  const size_t shared = sizeof(T) * (a.E + threads / 32);
  pointer_kernel<T><<<static_cast<unsigned>(a.B * a.group), threads, shared,
                      static_cast<cudaStream_t>(stream)>>>(
      static_cast<const T*>(a.keys), static_cast<const T*>(a.query), a.masked,
      static_cast<const T*>(a.beta), static_cast<const T*>(a.distance), static_cast<T*>(a.out),
      a.group, a.E, a.n, static_cast<T>(std::sqrt(static_cast<double>(a.E))),
      static_cast<T>(a.clip));
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int distances_from(const DistancesArgs& a, void* stream) {
  constexpr int threads = 256;
  const int64_t blocks = (a.R * a.n + threads - 1) / threads;
  distances_from_kernel<T>
      <<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(stream)>>>(
          static_cast<const T*>(a.positions), a.stride[0], a.stride[1], a.stride[2], a.current, a.R,
          a.n, static_cast<T*>(a.out));
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

bool glimpse_head_dim_fits(int64_t d) { return d == 8 || d == 16 || d == 32 || d == 64; }
int glimpse_float(const GlimpseArgs& args, void* stream) { return glimpse<float>(args, stream); }
int glimpse_double(const GlimpseArgs& args, void* stream) { return glimpse<double>(args, stream); }
int pointer_float(const PointerArgs& args, void* stream) { return pointer<float>(args, stream); }
int pointer_double(const PointerArgs& args, void* stream) { return pointer<double>(args, stream); }
int distances_from_float(const DistancesArgs& args, void* stream) {
  return distances_from<float>(args, stream);
}
int distances_from_double(const DistancesArgs& args, void* stream) {
  return distances_from<double>(args, stream);
}

}  // namespace eie::nn::cuda
