#include "src/problem/instances.h"

#include <stdexcept>

namespace eie {

Instances::Instances(std::map<std::string, torch::Tensor> fields) : fields_(std::move(fields)) {
  bool first = true;
  for (const auto& [name, tensor] : fields_) {
    if (tensor.dim() == 0) throw std::invalid_argument("field '" + name + "' has no instance axis");
    if (first) count_ = tensor.size(0);
    if (tensor.size(0) != count_) {
      throw std::invalid_argument("field '" + name + "' holds " + std::to_string(tensor.size(0)) +
                                  " instances, others " + std::to_string(count_));
    }
    first = false;
  }
}

const torch::Tensor& Instances::at(const std::string& name) const {
  const auto found = fields_.find(name);
  if (found == fields_.end()) throw std::invalid_argument("missing field '" + name + "'");
  return found->second;
}

namespace {
template <class F>
Instances map_fields(const std::map<std::string, torch::Tensor>& fields, F f) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& [name, tensor] : fields) out.emplace(name, f(tensor));
  return Instances(std::move(out));
}
}  // namespace

Instances Instances::slice(int64_t begin, int64_t end) const {
  return map_fields(fields_, [&](const torch::Tensor& t) { return t.slice(0, begin, end); });
}

Instances Instances::select(const torch::Tensor& index) const {
  return map_fields(fields_, [&](const torch::Tensor& t) { return t.index_select(0, index); });
}

Instances Instances::repeat_each(int64_t times) const {
  // Not repeat_interleave: it reads its output's size back from the device.
  return map_fields(fields_, [&](const torch::Tensor& t) {
    auto sizes = t.sizes().vec();
    sizes.insert(sizes.begin() + 1, times);
    auto rows = sizes;
    rows.erase(rows.begin() + 1);
    rows[0] *= times;
    return t.unsqueeze(1).expand(sizes).reshape(rows);
  });
}

Instances Instances::with(const std::string& name, torch::Tensor value) const {
  auto fields = fields_;
  fields[name] = std::move(value);
  return Instances(std::move(fields));
}

Instances Instances::to(const torch::Device& device) const {
  return map_fields(fields_, [&](const torch::Tensor& t) { return t.to(device); });
}

}  // namespace eie
