#include "src/io/model_format.h"

#include <stdexcept>

namespace eie {

namespace {
std::map<std::string, torch::Tensor> state_of(const torch::nn::Module& module) {
  std::map<std::string, torch::Tensor> state;
  for (const auto& p : module.named_parameters()) state.emplace(p.key(), p.value());
  for (const auto& b : module.named_buffers()) state.emplace(b.key(), b.value());
  return state;
}
}  // namespace

void write_module(h5::Writer& writer, const std::string& group, const torch::nn::Module& module) {
  for (const auto& [name, tensor] : state_of(module)) writer.write(group + "/" + name, tensor);
}

void read_module(const h5::Reader& reader, const std::string& group, torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (auto& [name, tensor] : state_of(module)) {
    if (!reader.has(group + "/" + name)) {  // a network changed since the file was written
      throw std::invalid_argument(reader.path().string() + ": no '" + group + "/" + name +
                                  "': a model of an older layout; retrain it");
    }
    const auto stored = reader.read(group + "/" + name);
    if (stored.sizes() != tensor.sizes()) {
      throw std::invalid_argument(reader.path().string() + ": '" + group + "/" + name +
                                  "' has shape " + c10::str(stored.sizes()) + ", the model needs " +
                                  c10::str(tensor.sizes()));
    }
    if (stored.is_floating_point() && !torch::isfinite(stored).all().item<bool>()) {
      throw std::invalid_argument(reader.path().string() + ": '" + group + "/" + name +
                                  "' holds NaN or infinite weights");
    }
    tensor.copy_(stored);
  }
}

void write_spec(h5::Writer& writer, const Attributes& spec, const std::string& kind) {
  for (const auto& [name, value] : spec) writer.attribute(name, value);
  writer.attribute("format_version", kFormatVersion);
  writer.attribute("kind", kind);
}

void check_format(const h5::Reader& reader) {
  const auto& path = reader.path().string();
  if (!reader.has_attribute("format_version")) {
    throw std::invalid_argument(path +
                                ": not an eie model (no format_version attribute; "
                                "reference weights need 'eie import' first)");
  }
  const auto version = reader.int_attribute("format_version");
  if (version != kFormatVersion) {
    throw std::invalid_argument(path + ": format version " + std::to_string(version) +
                                ", this eie reads version " + std::to_string(kFormatVersion));
  }
}

}  // namespace eie
