#include "src/nn/pick_rows.h"

#include <cstring>

#include "src/nn/head_kernels.h"  // kParallelWork
#include "src/nn/kernel_operands.h"

namespace eie::nn {

namespace {

// Whether copying or adding `rows` rows of E elements goes to OpenMP threads.
bool spread(int64_t rows, int64_t E) { return rows * E >= kParallelWork; }

// out [B, T, E] = the rows of table [B, n, E] at index [B, T].
template <typename T>
void copy_rows(const T* table, const int64_t* index, int64_t B, int64_t n, int64_t steps, int64_t E,
               T* out) {
#pragma omp parallel for schedule(static) if (spread(B * steps, E))
  for (int64_t row = 0; row < B * steps; ++row) {
    const int64_t b = row / steps;
    std::memcpy(out + row * E, table + (b * n + index[row]) * E, sizeof(T) * E);
  }
}

// grad_table [B, n, E] (zeroed) += grad_out [B, T, E] at index [B, T]. Threads take whole
// instances: rows of one instance may add to the same row.
template <typename T>
void add_rows(const T* grad_out, const int64_t* index, int64_t B, int64_t n, int64_t steps,
              int64_t E, T* grad_table) {
#pragma omp parallel for schedule(static) if (B > 1 && spread(B * steps, E))
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t row = b * steps + t;
      T* target = grad_table + (b * n + index[row]) * E;
      const T* source = grad_out + row * E;
      for (int64_t e = 0; e < E; ++e) target[e] += source[e];
    }
  }
}

class PickRowsFunction : public torch::autograd::Function<PickRowsFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& table,
                               const torch::Tensor& index) {
    const auto data = table.contiguous();
    const auto picked = index.contiguous();
    const int64_t B = data.size(0), n = data.size(1), E = data.size(2), steps = picked.size(1);
    auto out = torch::empty({B, steps, E}, data.options());
    if (out.numel() > 0) {
      AT_DISPATCH_FLOATING_TYPES(data.scalar_type(), "pick rows", [&] {
        copy_rows(data.data_ptr<scalar_t>(), picked.data_ptr<int64_t>(), B, n, steps, E,
                  out.data_ptr<scalar_t>());
      });
    }
    ctx->save_for_backward({picked});
    ctx->saved_data["nodes"] = n;
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto picked = ctx->get_saved_variables()[0];
    const auto grad_out = grads[0].contiguous();
    const int64_t B = grad_out.size(0), steps = grad_out.size(1), E = grad_out.size(2);
    const int64_t n = ctx->saved_data["nodes"].toInt();
    auto grad_table = torch::zeros({B, n, E}, grad_out.options());
    if (grad_out.numel() > 0) {
      AT_DISPATCH_FLOATING_TYPES(grad_out.scalar_type(), "pick rows backward", [&] {
        add_rows(grad_out.data_ptr<scalar_t>(), picked.data_ptr<int64_t>(), B, n, steps, E,
                 grad_table.data_ptr<scalar_t>());
      });
    }
    return {grad_table, {}};
  }
};

}  // namespace

torch::Tensor pick_rows(const torch::Tensor& table, const torch::Tensor& index) {
  TORCH_CHECK(table.dim() == 3 && index.dim() == 2 && index.size(0) == table.size(0),
              "pick_rows: table [B, n, E] and index [B, T]");
  const bool kernels =
      kernel_operand(table) && index.device().is_cpu() && index.scalar_type() == torch::kLong;
  if (!kernels) {
    return table.gather(1, index.unsqueeze(2).expand({-1, -1, table.size(2)}));
  }
  // A wrong index would read or write outside the table: LibTorch's gather checks too.
  const auto picked = index.contiguous();
  TORCH_CHECK(indices_within(picked, table.size(1)), "pick_rows: index out of range");
  return PickRowsFunction::apply(table, picked);
}

}  // namespace eie::nn
