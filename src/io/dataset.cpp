#include "src/io/dataset.h"

#include <stdexcept>

#include "src/io/h5_file.h"

namespace eie {

Dataset read_dataset(const std::filesystem::path& path) {
  const h5::Reader reader(path);
  Dataset dataset;
  dataset.problem = reader.string_attribute("problem");
  const ProblemDescriptor* problem = nullptr;
  try {
    problem = &problem_descriptor(dataset.problem);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
  for (const auto& o : problem->options) {  // the options its problem records
    if (o.recorded && reader.has_attribute(o.name)) {
      dataset.options[o.name] = reader.string_attribute(o.name);
    }
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

ProblemOptions recorded_options(const std::string& problem, const ProblemOptions& options) {
  const auto& descriptor = problem_descriptor(problem);
  const auto completed = with_defaults(descriptor, options);
  ProblemOptions recorded;
  for (const auto& o : descriptor.options) {
    if (o.recorded) recorded[o.name] = option(completed, o.name);
  }
  return recorded;
}

std::shared_ptr<const Problem> problem_of(const Dataset& dataset) {
  return make_problem(dataset.problem, dataset.options);
}

}  // namespace eie
