#include "python/src/files.h"

#include "src/io/dataset.h"
#include "src/problem/instance_file.h"

namespace eie::python {

namespace {

// A solution file of the instance file `instance`: {"problem", "name" (the instance's),
// "solution": {name: tensor}}.
py::dict read_solution(const std::filesystem::path& path, const std::filesystem::path& instance) {
  require_file(path);
  require_file(instance);
  std::unique_ptr<InstanceFile> file;
  SolutionTensors solution;
  {
    const py::gil_scoped_release release;
    file = read_instance_file(instance);
    solution = file->read_solution(path);
  }
  py::dict out;
  out["problem"] = file->problem()->name();
  out["name"] = file->name();
  out["solution"] = dict_of(solution);
  return out;
}

// {"problem": name, "options": {...}, "instances": {field: tensor}}, and the file's
// name and notes for instance files; with `instance`, a solution file of it.
py::dict read(const std::filesystem::path& path,
              const std::optional<std::filesystem::path>& instance) {
  if (instance) return read_solution(path, *instance);
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
  m.def("read", &read, py::arg("path"), py::kw_only(), py::arg("instance") = py::none(),
        "An instance file (.tsp, .vrp, .bpp; scaled as the policies read it) or a dataset "
        "(.h5): {'problem', 'options', 'instances': {field: tensor}}. With instance=FILE, "
        "path is a solution of that file (.tour, .sol, placements): {'problem', 'name', "
        "'solution': {'tours' | 'routes' | 'placements': tensor}}.");
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
      "write",
      [](const std::filesystem::path& path, const py::dict& solution,
         const std::filesystem::path& instance) {
        require_file(instance);
        const SolutionTensors tensors = instances_of(solution).fields();
        const py::gil_scoped_release release;
        read_instance_file(instance)->write_solution(path, tensors);
      },
      py::arg("path"), py::kw_only(), py::arg("solution"), py::arg("instance"),
      "Writes a solution of the instance file `instance` ({'tours' | 'routes' | "
      "'placements': tensor}, a batch of one, as eie.read gives it) in the problem's "
      "solution format, as eie solve --out writes it; checked first, written atomically.");
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
