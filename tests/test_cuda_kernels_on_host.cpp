// eie's CUDA kernels (src/nn/cuda/decode_kernels.cuh) run on host threads
// (tests/cuda_on_host.h) against the CPU's glimpse, pointer and distances, in float32
// and float64: their logic is checked here, where no GPU is (tests/cuda/ checks them on
// one). The launch shapes are decode_kernels.cu's: threads_for(n) threads a block, a
// block per query row and head (glimpse) or per query row (pointer).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <type_traits>

#include "src/nn/distance_bias.h"
#include "src/nn/glimpse.h"
// Last: the emulation's macros (threadIdx, __device__, ...) stay out of other headers.
#include "tests/cuda_on_host.h"
// clang-format off
#include "src/nn/cuda/decode_kernels.cuh"
// clang-format on

namespace eie::nn {
namespace {

namespace host = test::cuda_on_host;
using cuda::device::threads_for;

struct Rows {
  int64_t B, K, M, d, n;  // instances, query rows per instance, heads, head size, nodes
};

// Random keys, values, queries, masks (row 1 of instance 0 all masked: NaN expected)
// and distances for `r`.
struct Inputs {
  GlimpseMemory memory;
  torch::Tensor query, masked, distance, beta, pointer_keys;
  Inputs(const Rows& r, torch::Dtype dtype) {
    const auto options = torch::TensorOptions().dtype(dtype);
    const int64_t E = r.M * r.d;
    memory = glimpse_memory(torch::randn({r.B, r.n, E}, options),
                            torch::randn({r.B, r.n, E}, options), r.M);
    query = torch::randn({r.B, r.K, E}, options);
    masked = torch::rand({r.B, r.K, r.n}) < 0.3;
    masked.select(2, 0).fill_(false);
    masked[0][r.K > 1 ? 1 : 0].fill_(true);
    distance = torch::rand({r.B, r.K, r.n}, options);
    beta = torch::rand({r.M}, options) * 5;
    pointer_keys = torch::randn({r.B, E, r.n}, options);
  }
};

template <typename T, int D>
torch::Tensor glimpse_on_host(const Rows& r, const Inputs& in, bool biased, double scale) {
  const int64_t R = r.B * r.K;
  auto out = torch::full({R, r.M * D}, -7.0, in.query.options());
  const auto masked = in.masked.reshape({R, r.n}).contiguous();
  const auto query = in.query.reshape({R, r.M * D}).contiguous();
  host::launch(static_cast<unsigned>(R * r.M), threads_for(r.n), [&] {
    cuda::device::glimpse_kernel<T, D>(in.memory.keys.data_ptr<T>(), in.memory.values.data_ptr<T>(),
                                       query.data_ptr<T>(), masked.data_ptr<bool>(),
                                       biased ? in.beta.data_ptr<T>() : nullptr,
                                       biased ? in.distance.data_ptr<T>() : nullptr,
                                       out.data_ptr<T>(), r.K, r.M, r.n, static_cast<T>(scale));
  });
  return out.view({r.B, r.K, r.M * D});
}

template <typename T>
torch::Tensor pointer_on_host(const Rows& r, const Inputs& in, bool biased, double clip) {
  const int64_t R = r.B * r.K, E = r.M * r.d;
  auto out = torch::full({R, r.n}, -7.0, in.query.options());
  const auto masked = in.masked.reshape({R, r.n}).contiguous();
  const auto query = in.query.reshape({R, E}).contiguous();
  const auto beta = in.beta.slice(0, 0, 1).contiguous();
  host::launch(static_cast<unsigned>(R), threads_for(r.n), [&] {
    cuda::device::pointer_kernel<T>(in.pointer_keys.data_ptr<T>(), query.data_ptr<T>(),
                                    masked.data_ptr<bool>(), biased ? beta.data_ptr<T>() : nullptr,
                                    biased ? in.distance.data_ptr<T>() : nullptr, out.data_ptr<T>(),
                                    r.K, E, r.n, static_cast<T>(std::sqrt(static_cast<double>(E))),
                                    static_cast<T>(clip));
  });
  return out.view({r.B, r.K, r.n});
}

// `got` against `expected` where both are finite, and NaN (or -inf) where `expected` is.
void expect_close(const torch::Tensor& got, const torch::Tensor& expected, double tolerance,
                  const std::string& where) {
  EXPECT_TRUE(torch::equal(got.isnan(), expected.isnan())) << where;
  EXPECT_TRUE(torch::equal(got.isinf(), expected.isinf())) << where;
  const auto finite = expected.isfinite();
  ASSERT_GT(finite.sum().item<int64_t>(), 0) << where;
  EXPECT_LT((got.masked_select(finite) - expected.masked_select(finite)).abs().max().item<double>(),
            tolerance)
      << where;
}

// A node or fewer than a warp, two warps with a row of three per instance, and more nodes
// than a block's 256 threads (several nodes a thread); with and without the bias.
template <typename T>
void check_kernels(torch::Dtype dtype, double tolerance) {
  const struct {
    Rows rows;
    bool biased;
  } cases[] = {{{2, 1, 4, 16, 1}, false},
               {{2, 1, 4, 16, 33}, true},
               {{2, 3, 4, 16, 33}, false},
               {{2, 3, 4, 16, 33}, true},
               {{1, 2, 2, 16, 300}, true}};
  for (const auto& [r, biased] : cases) {
    const Inputs in(r, dtype);
    const std::string where = std::string(c10::toString(dtype)) + " n " + std::to_string(r.n) +
                              " K " + std::to_string(r.K) + (biased ? " biased" : "");
    const ScoreBias bias = biased ? ScoreBias{in.beta, in.distance} : ScoreBias{};
    expect_close(glimpse_on_host<T, 16>(r, in, biased, 0.3),
                 glimpse_steps(in.memory, in.query, in.masked, 0.3, bias), tolerance,
                 "glimpse " + where);
    const auto beta = in.beta.slice(0, 0, 1);
    expect_close(pointer_on_host<T>(r, in, biased, 10),
                 pointer_log_probs(in.pointer_keys, in.query, 10, biased ? beta : torch::Tensor(),
                                   in.distance, in.masked),
                 tolerance, "pointer " + where);
  }
}

TEST(CudaKernelsOnHost, GlimpseAndPointerAreTheCpus) {
  torch::manual_seed(8);
  check_kernels<float>(torch::kFloat, 2e-5);
  check_kernels<double>(torch::kDouble, 1e-12);
}

// Every head size the launcher dispatches (8, 16, 32, 64) reads its keys and values right.
TEST(CudaKernelsOnHost, GlimpseTakesEveryHeadSize) {
  torch::manual_seed(9);
  const auto run = [](auto head) {
    constexpr int D = decltype(head)::value;
    const Rows r{2, 2, 2, D, 40};
    const Inputs in(r, torch::kDouble);
    expect_close(
        glimpse_on_host<double, D>(r, in, true, 0.25),
        glimpse_steps(in.memory, in.query, in.masked, 0.25, ScoreBias{in.beta, in.distance}), 1e-12,
        "d " + std::to_string(D));
  };
  run(std::integral_constant<int, 8>{});
  run(std::integral_constant<int, 32>{});
  run(std::integral_constant<int, 64>{});
}

// The distances from the current node, bit for bit the CPU loop's, with strided
// positions and a current node out of range (NaN there).
TEST(CudaKernelsOnHost, DistancesAreTheCpusBits) {
  torch::manual_seed(10);
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    const int64_t R = 5, n = 37;
    const auto positions =
        torch::rand({R, 2, n}, torch::TensorOptions().dtype(dtype)).transpose(1, 2);
    auto current = torch::randint(n, {R}, torch::kLong);
    auto out = torch::empty({R, n}, positions.options());
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      host::launch(static_cast<unsigned>((R * n + 255) / 256), 256, [&] {
        cuda::device::distances_from_kernel<T>(
            positions.data_ptr<T>(), positions.stride(0), positions.stride(1), positions.stride(2),
            current.data_ptr<int64_t>(), R, n, out.data_ptr<T>());
      });
    };
    const auto launch = [&] { dtype == torch::kFloat ? run(0.0f) : run(0.0); };
    launch();
    EXPECT_TRUE(torch::equal(out, distances_from(positions, current))) << dtype;
    current[R - 1] = n;
    launch();
    EXPECT_TRUE(out[R - 1].isnan().all().item<bool>()) << dtype;
  }
}

}  // namespace
}  // namespace eie::nn
