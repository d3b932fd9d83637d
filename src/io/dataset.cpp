#include "io/dataset.h"

#include "io/h5_file.h"

namespace eie {

namespace {
const char* const kOptionAttributes[] = {"domain", "protocol"};
}

Dataset read_dataset(const std::filesystem::path& path) {
  const h5::Reader reader(path);
  Dataset dataset;
  dataset.problem = reader.string_attribute("problem");
  for (const char* name : kOptionAttributes) {
    if (reader.has_attribute(name)) dataset.options[name] = reader.string_attribute(name);
  }
  std::map<std::string, torch::Tensor> fields;
  for (const auto& name : reader.datasets()) fields.emplace(name, reader.read(name));
  if (fields.empty()) throw std::invalid_argument(path.string() + ": dataset holds no arrays");
  try {
    dataset.instances = Instances(std::move(fields));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
  if (dataset.instances.count() == 0)
    throw std::invalid_argument(path.string() + ": dataset is empty");
  return dataset;
}

void write_dataset(const std::filesystem::path& path, const Dataset& dataset) {
  h5::Writer writer(path);
  writer.attribute("problem", dataset.problem);
  for (const auto& [name, value] : dataset.options) writer.attribute(name, value);
  for (const auto& [name, tensor] : dataset.instances.fields()) writer.write(name, tensor);
  writer.commit();
}

}  // namespace eie
