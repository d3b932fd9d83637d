#include "python/src/conversions.h"

#include <omp.h>

namespace eie::python {

void require_file(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) throw MissingFile(path.string() + ": no such file");
}

Instances instances_of(const py::dict& fields) {
  std::map<std::string, torch::Tensor> tensors;
  for (const auto& [key, value] : fields) {
    const auto name = py::str(key).cast<std::string>();
    if (!THPVariable_Check(value.ptr())) {
      throw std::invalid_argument("field '" + name + "' must be a torch.Tensor, got " +
                                  py::str(py::type::of(value)).cast<std::string>());
    }
    tensors.emplace(name, THPVariable_Unpack(value.ptr()));
  }
  return Instances(std::move(tensors));
}

py::dict dict_of(const std::map<std::string, torch::Tensor>& tensors) {
  py::dict out;
  for (const auto& [name, tensor] : tensors) out[py::str(name)] = tensor;
  return out;
}

ProblemOptions options_of(const py::dict& options) {
  ProblemOptions out;
  for (const auto& [key, value] : options) {
    out[py::str(key).cast<std::string>()] = py::str(value).cast<std::string>();
  }
  return out;
}

std::shared_ptr<const Problem> checked_problem(const std::string& problem,
                                               const ProblemOptions& options,
                                               const Instances& instances) {
  auto made = make_problem(problem, options);
  check_instances(problem_descriptor(problem), *made, instances);
  return made;
}

void use_threads(const std::optional<int64_t>& threads) {
  if (!threads) return;
  if (*threads < 1) {
    throw std::invalid_argument("--threads must be >= 1, got " + std::to_string(*threads));
  }
  torch::set_num_threads(static_cast<int>(*threads));
  omp_set_num_threads(static_cast<int>(*threads));
}

torch::Device device_of(const std::string& device) {
  if (device == "cpu") return torch::kCPU;
  if (device != "cuda") {
    throw std::invalid_argument("--device: expected cpu or cuda, got '" + device + "'");
  }
  if (!torch::cuda::is_available()) {
    throw std::invalid_argument("--device cuda: this LibTorch build has no usable CUDA device");
  }
  return torch::kCUDA;
}

uint64_t seed_of(int64_t seed) {
  if (seed < 0) throw std::invalid_argument("--seed must be >= 0, got " + std::to_string(seed));
  return static_cast<uint64_t>(seed);
}

}  // namespace eie::python
