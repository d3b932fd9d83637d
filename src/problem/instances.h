#pragma once

#include <torch/torch.h>

#include <map>
#include <string>

namespace eie {

// A batch of problem instances as named tensors sharing dimension 0 (the
// instance index). The same names are the datasets of an HDF5 dataset file.
class Instances {
 public:
  Instances() = default;
  explicit Instances(std::map<std::string, torch::Tensor> fields);

  [[nodiscard]] int64_t count() const { return count_; }
  [[nodiscard]] bool has(const std::string& name) const { return fields_.count(name) > 0; }
  // Throws std::invalid_argument naming the missing field.
  [[nodiscard]] const torch::Tensor& at(const std::string& name) const;
  [[nodiscard]] const std::map<std::string, torch::Tensor>& fields() const { return fields_; }

  [[nodiscard]] Instances slice(int64_t begin, int64_t end) const;
  [[nodiscard]] Instances select(const torch::Tensor& index) const;
  // Each instance `times` times in a row: [a, a, b, b] for times = 2.
  [[nodiscard]] Instances repeat_each(int64_t times) const;
  [[nodiscard]] Instances with(const std::string& name, torch::Tensor value) const;
  [[nodiscard]] Instances to(const torch::Device& device) const;

 private:
  std::map<std::string, torch::Tensor> fields_;  // name -> [count, ...]
  int64_t count_ = 0;                            // shared size of dimension 0
};

}  // namespace eie
