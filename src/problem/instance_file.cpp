#include "src/problem/instance_file.h"

namespace eie {

torch::Tensor single_solution(const SolutionTensors& solution, const std::string& name,
                              int64_t dims, torch::ScalarType dtype) {
  const auto found = solution.find(name);
  if (found == solution.end()) {
    throw std::invalid_argument("solution: no '" + name + "' (this problem's solutions have one)");
  }
  const auto& t = found->second;
  if (t.dim() != dims || t.size(0) != 1 || !(t.is_floating_point() == isFloatingType(dtype))) {
    throw std::invalid_argument(
        "solution: '" + name + "' must be " + std::string(c10::toString(dtype)) + " with " +
        std::to_string(dims) + " dimensions, the first of size 1; got " +
        c10::toString(t.scalar_type()) + " of shape " + c10::str(t.sizes()));
  }
  return t[0].to(torch::kCPU, dtype).contiguous();
}

}  // namespace eie
