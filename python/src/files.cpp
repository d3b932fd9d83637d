#include "python/src/files.h"

#include "src/io/dataset.h"

namespace eie::python {

namespace {

// {"problem": name, "options": {...}, "instances": {field: tensor}}, and the file's
// name and notes for instance files.
py::dict read(const std::filesystem::path& path) {
  require_file(path);
  py::dict out;
  if (path.extension() == ".h5") {
    Dataset dataset;
    {
      const py::gil_scoped_release release;
      dataset = read_dataset(path);
      try {
        problem_of(dataset)->validate(dataset.instances);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path.string() + ": " + e.what());
      }
    }
    out["problem"] = dataset.problem;
    out["options"] = dataset.options;
    out["instances"] = dict_of(dataset.instances.fields());
    return out;
  }
  std::unique_ptr<InstanceFile> file;
  {
    const py::gil_scoped_release release;
    file = read_instance_file(path);
  }
  out["problem"] = file->problem()->name();
  out["options"] = ProblemOptions{};
  out["instances"] = dict_of(file->instances().fields());
  out["name"] = file->name();
  out["notes"] = file->notes();
  return out;
}

}  // namespace

void bind_files(py::module_& m) {
  m.def("read", &read, py::arg("path"),
        "An instance file (.tsp, .vrp, .bpp; scaled as the policies read it) or a dataset "
        "(.h5): {'problem', 'options', 'instances': {field: tensor}}.");
  m.def(
      "write",
      [](const std::filesystem::path& path, const std::string& problem, const py::dict& instances,
         const py::dict& options) {
        Dataset dataset{problem, recorded_options(problem, options_of(options)),
                        instances_of(instances)};
        const py::gil_scoped_release release;
        check_instances(problem_descriptor(problem), *problem_of(dataset), dataset.instances);
        write_dataset(path, dataset);
      },
      py::arg("path"), py::arg("problem"), py::arg("instances"), py::arg("options") = py::dict(),
      "Writes instances as an HDF5 dataset (what eie gen writes), atomically.");
  m.def(
      "check",
      [](const std::string& problem, const py::dict& instances, const torch::Tensor& actions,
         const py::dict& options) {
        const auto batch = instances_of(instances);
        const auto problem_options = options_of(options);
        const py::gil_scoped_release release;
        const auto made = checked_problem(problem, problem_options, batch);
        if (actions.scalar_type() != torch::kLong || actions.dim() != 2) {
          throw std::invalid_argument("check: actions must be int64 [count, steps]");
        }
        try {
          return made->check(batch.to(torch::kCPU), actions.to(torch::kCPU));
        } catch (const std::logic_error& e) {
          throw std::invalid_argument(std::string("check: ") + e.what());
        }
      },
      py::arg("problem"), py::arg("instances"), py::arg("actions"), py::arg("options") = py::dict(),
      "The costs [B] (float64) of solutions in the decode loop's form (tours for tsp), "
      "checked independently of the environments; ValueError for an infeasible one.");
}

}  // namespace eie::python
