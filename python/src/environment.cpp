#include "python/src/environment.h"

namespace eie::python {

namespace {

// [B] bool: feasible[b, actions[b]], false where the action is out of range.
torch::Tensor allowed(const torch::Tensor& feasible, const torch::Tensor& actions) {
  const auto clamped = actions.clamp(0, feasible.size(1) - 1);
  return feasible.gather(1, clamped.unsqueeze(1)).squeeze(1) & (clamped == actions);
}

// Whether every action is allowed, with one wait for the device (a step is a few ops, so
// each op and wait shows). On the CPU gather checks its indices itself, an op fewer; on
// a GPU an index out of range would be a device-side assert.
bool all_allowed(const torch::Tensor& feasible, const torch::Tensor& actions) {
  if (feasible.is_cpu()) {
    try {
      return feasible.gather(1, actions.unsqueeze(1)).all().item<bool>();
    } catch (const c10::Error&) {  // "index 7 is out of bounds" (shapes are checked)
      return false;
    }
  }
  return allowed(feasible, actions).all().item<bool>();
}

// The environment the decode loop steps, on instances given as tensors (not copied),
// with every action checked against the mask before it reaches the environment.
class Env {
 public:
  Env(const std::string& problem, Instances instances, const ProblemOptions& options)
      : instances_(std::move(instances)) {
    problem_ = checked_problem(problem, options, instances_);
    env_ = problem_->start(instances_);
  }

  [[nodiscard]] torch::Tensor mask() const { return env_->feasible(); }
  [[nodiscard]] torch::Tensor done() const { return env_->finished(); }
  [[nodiscard]] torch::Tensor cost() const { return env_->cost(); }
  [[nodiscard]] int64_t steps() const { return steps_; }
  [[nodiscard]] int64_t max_steps() const { return env_->max_steps(); }
  [[nodiscard]] const Instances& instances() const { return instances_; }

  void step(const torch::Tensor& actions) {
    const auto feasible = env_->feasible();
    const auto count = feasible.size(0);
    if (actions.scalar_type() != torch::kLong || actions.dim() != 1 || actions.size(0) != count) {
      throw std::invalid_argument("step: actions must be int64 of shape [" + std::to_string(count) +
                                  "], got " + c10::toString(actions.scalar_type()) + " of shape " +
                                  c10::str(actions.sizes()));
    }
    if (actions.device() != feasible.device()) {
      throw std::invalid_argument("step: actions are on " + actions.device().str() +
                                  ", the instances on " + feasible.device().str());
    }
    if (env_->done()) throw std::invalid_argument("step: every instance is done");
    if (!all_allowed(feasible, actions)) {
      const auto b = (~allowed(feasible, actions)).nonzero()[0][0].item<int64_t>();
      throw std::invalid_argument("step: action " + std::to_string(actions[b].item<int64_t>()) +
                                  " of instance " + std::to_string(b) +
                                  " is not allowed (mask() is false there)");
    }
    env_->step(actions);
    ++steps_;
  }

 private:
  Instances instances_;                     // as given, sharing the caller's tensors
  std::shared_ptr<const Problem> problem_;  // what the instances are
  std::unique_ptr<Environment> env_;        // the batch's state
  int64_t steps_ = 0;                       // actions taken so far
};

}  // namespace

void bind_environment(py::module_& m) {
  py::class_<Env>(m, "Env",
                  "A problem's batched environment on instances given as tensors: "
                  "mask(), step(actions), done(), cost().")
      .def(py::init(
               [](const std::string& problem, const py::dict& instances, const py::dict& options) {
                 auto batch = instances_of(instances);
                 const auto problem_options = options_of(options);
                 const py::gil_scoped_release release;
                 return std::make_unique<Env>(problem, std::move(batch), problem_options);
               }),
           py::arg("problem"), py::arg("instances"), py::arg("options") = py::dict())
      .def("mask", &Env::mask, py::call_guard<py::gil_scoped_release>(),
           "bool [B, actions], True where an action is allowed")
      .def("step", &Env::step, py::arg("actions"), py::call_guard<py::gil_scoped_release>(),
           "applies int64 [B] actions (finished instances: an allowed no-op)")
      .def("done", &Env::done, py::call_guard<py::gil_scoped_release>(),
           "bool [B], True where the solution is complete")
      .def("cost", &Env::cost, py::call_guard<py::gil_scoped_release>(),
           "[B] float32 cost of the solutions so far (final once done)")
      .def_property_readonly("steps", &Env::steps, "actions taken so far")
      .def_property_readonly("max_steps", &Env::max_steps,
                             "steps after which every instance is done")
      .def_property_readonly(
          "instances", [](const Env& env) { return dict_of(env.instances().fields()); },
          "the instances, sharing the given tensors' storage");
}

}  // namespace eie::python
