#pragma once

// The CUDA that eie's kernels (src/*/cuda/*.cuh) use, emulated on the host, so that the
// fast suite runs their logic without a GPU. Every CUDA thread of a block is a fiber
// (ucontext) of one host thread; a block's fibers run in turn until each reaches the
// next __syncthreads() or its end, so a barrier holds them all before any goes on. A
// warp shuffle goes through memory between two barriers: every thread of the block
// must reach it, as the kernels' reductions do. Blocks run one after the other and share
// one buffer of shared memory. Not a GPU: no timing, no concurrency, no memory model
// beyond the barriers.

#include <ucontext.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __align__(n) alignas(n)

namespace eie::test::cuda_on_host {

struct Index {
  unsigned x = 0;
};

// A CUDA thread of the block that runs.
struct Fiber {
  ucontext_t context;
  std::vector<char> stack;
  bool done = false;
};

inline Index thread_index, block_index, block_size;
inline ucontext_t scheduler;                        // where a fiber yields to
inline std::vector<Fiber> fibers;                   // the block's threads
inline const std::function<void()>* kernel_call;    // what each runs
inline std::vector<double> lanes;                   // a value per thread, for shuffles
inline std::vector<unsigned char> shared(1 << 16);  // the block's shared memory

inline void run_fiber() {
  (*kernel_call)();
  fibers[thread_index.x].done = true;
}  // uc_link: back to the scheduler

// Back to the scheduler, which resumes this thread after every other one has yielded.
inline void yield() {
  if (swapcontext(&fibers[thread_index.x].context, &scheduler) != 0) {
    throw std::runtime_error("cuda_on_host: swapcontext failed");
  }
}

// Runs `kernel` (the kernel's call, arguments bound) on `blocks` blocks of `threads`.
inline void launch(unsigned blocks, unsigned threads, const std::function<void()>& kernel) {
  kernel_call = &kernel;
  block_size.x = threads;
  lanes.assign(threads, 0);
  fibers.assign(threads, Fiber{});
  for (auto& fiber : fibers) fiber.stack.resize(1 << 16);
  for (unsigned b = 0; b < blocks; ++b) {
    block_index.x = b;
    for (auto& fiber : fibers) {
      getcontext(&fiber.context);
      fiber.context.uc_stack.ss_sp = fiber.stack.data();
      fiber.context.uc_stack.ss_size = fiber.stack.size();
      fiber.context.uc_link = &scheduler;
      fiber.done = false;
      makecontext(&fiber.context, run_fiber, 0);
    }
    for (bool running = true; running;) {
      running = false;
      for (unsigned t = 0; t < threads; ++t) {
        if (fibers[t].done) continue;
        thread_index.x = t;
        swapcontext(&scheduler, &fibers[t].context);
        running = true;
      }
    }
  }
}

}  // namespace eie::test::cuda_on_host

#define threadIdx (::eie::test::cuda_on_host::thread_index)
#define blockIdx (::eie::test::cuda_on_host::block_index)
#define blockDim (::eie::test::cuda_on_host::block_size)
#define EIE_SHARED_BYTES(name) unsigned char* name = ::eie::test::cuda_on_host::shared.data()

inline void __syncthreads() { ::eie::test::cuda_on_host::yield(); }

template <typename T>
T __shfl_xor_sync(unsigned, T value, int lane_mask) {
  namespace host = ::eie::test::cuda_on_host;
  const unsigned me = threadIdx.x;
  host::lanes[me] = static_cast<double>(value);
  host::yield();
  const auto other = static_cast<T>(host::lanes[me ^ static_cast<unsigned>(lane_mask)]);
  host::yield();
  return other;
}

inline float __fmul_rn(float a, float b) { return a * b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline double __dadd_rn(double a, double b) { return a + b; }
