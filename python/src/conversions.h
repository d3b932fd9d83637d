#pragma once

// Between Python values and eie's (paths as str or os.PathLike): instance batches as dicts of
// tensors (no copies), problem options, thread counts, files that must exist, and the exceptions
// Python sees.

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <torch/extension.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "src/problem/registry.h"

namespace eie::python {

namespace py = pybind11;

// A path that names no file: FileNotFoundError in Python.
class MissingFile : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MissingFile ("PATH: no such file", the CLI's words) unless `path` exists.
void require_file(const std::filesystem::path& path);

// The tensors of `fields` ({name: torch.Tensor}) as an instance batch, sharing their
// storage; std::invalid_argument for a value that is not a tensor.
[[nodiscard]] Instances instances_of(const py::dict& fields);
// {name: tensor} as a Python dict.
[[nodiscard]] py::dict dict_of(const std::map<std::string, torch::Tensor>& tensors);

// Problem options ({"domain": "symmetric"}) with str values, as the CLI's flags give them.
[[nodiscard]] ProblemOptions options_of(const py::dict& options);

// `problem` under `options`, with `instances` checked against it (check_instances).
[[nodiscard]] std::shared_ptr<const Problem> checked_problem(const std::string& problem,
                                                             const ProblemOptions& options,
                                                             const Instances& instances);

// threads=N as --threads N: LibTorch's and OpenMP's thread counts; none leaves them.
void use_threads(const std::optional<int64_t>& threads);

// device="cpu" or "cuda" as --device, checked as the CLI checks it.
[[nodiscard]] torch::Device device_of(const std::string& device);

// seed=S as --seed S, range-checked.
[[nodiscard]] uint64_t seed_of(int64_t seed);

}  // namespace eie::python
