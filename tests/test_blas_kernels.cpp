// The BLAS kernels matrix products run on: never OpenBLAS's Prescott fallback on a CPU
// that can run better ones (tests/test_main.cpp calls use_native_blas_kernels(), as the
// binary does).
#include <gtest/gtest.h>

#include <string>

#include "src/util/blas_kernels.h"

namespace eie {
namespace {

bool runs_avx2() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

TEST(BlasKernels, NotTheOldestWhereTheCpuRunsNewerOnes) {
  const auto kernels = blas_kernels();
  if (kernels.empty()) GTEST_SKIP() << "the BLAS loaded is not OpenBLAS";
  if (!runs_avx2()) GTEST_SKIP() << "this CPU has no AVX2: Prescott's kernels may be its best";
  EXPECT_EQ(kernels.find("Prescott kernels"), std::string::npos) << kernels;
}

}  // namespace
}  // namespace eie
