#include "python/src/train.h"

#include <memory>
#include <optional>
#include <string>

#include "src/train/starting_agent.h"
#include "src/train/train_settings.h"
#include "src/train/trainer.h"

namespace eie::python {

namespace {

// A log row as the dict the callback receives, keyed by log.csv's columns.
py::dict row_of(const EpochRecord& r) {
  py::dict row;
  row["epoch"] = r.epoch;
  row["mean_train_cost"] = r.mean_train_cost;
  row["val_greedy_cost"] = r.val_greedy_cost;
  row["baseline_replaced"] = r.baseline_replaced;
  row["p_value"] = r.p_value;
  row["lr"] = r.lr;
  row["seconds"] = r.seconds;
  row["seconds_per_step"] = r.seconds_per_step;
  row["cpu_seconds"] = r.cpu_seconds;
  row["device"] = r.device;
  row["train_seconds"] = r.train_seconds;
  return row;
}

// The trainer's on_epoch hook, run with the GIL released: takes the GIL for the
// callback (None: none) and for pending signals (Ctrl-C ends the run at an epoch's end).
// A Python exception leaves as py::error_already_set, which ends the run and reaches
// the caller as itself.
std::function<bool(const EpochRecord&)> epoch_hook(const py::object& callback) {
  // Copied with the options while the GIL is released: shared, released under the GIL.
  const std::shared_ptr<py::object> held(new py::object(callback), [](py::object* object) {
    const py::gil_scoped_acquire gil;
    delete object;
  });
  return [held](const EpochRecord& record) {
    const py::gil_scoped_acquire gil;
    bool go_on = true;
    if (!held->is_none()) {
      const auto answer = (*held)(row_of(record));
      go_on = answer.is_none() || answer.cast<bool>();
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    return go_on;
  };
}

// eie.train(out=..., n=..., on_epoch=...): the keywords are TrainSettings' fields
// (eie train's flags); the model file written.
std::string run_training(const std::string& problem, const py::dict& options,
                         const py::object& on_epoch, int64_t seed, const std::string& device,
                         const std::optional<int64_t>& threads, const py::kwargs& flags) {
  auto settings = py::cast(TrainSettings{});
  for (const auto& [key, value] : flags) {
    const auto name = py::str(key).cast<std::string>();
    if (!py::hasattr(settings, name.c_str())) {
      throw std::invalid_argument("eie.train: no keyword '" + name + "' (eie train has no --" +
                                  name + ")");
    }
    settings.attr(name.c_str()) = value;
  }
  const auto given = settings.cast<TrainSettings>();
  use_threads(threads);
  const auto where = device_of(device);
  const auto problem_options = options_of(options);
  if (!given.init.empty()) require_file(given.init);
  auto setup = train_setup(given, problem, problem_options, seed_of(seed));
  setup.trainer.on_epoch = epoch_hook(on_epoch);
  {
    const py::gil_scoped_release release;
    torch::manual_seed(setup.trainer.seed);  // the network's initial weights, as --seed
    const auto agent = starting_agent(make_problem(problem, problem_options), setup.network,
                                      setup.trainer, setup.init);
    agent->network().to(where);
    train(*agent, setup.trainer);
  }
  return (setup.trainer.out_dir / "model.h5").string();
}

}  // namespace

void bind_train(py::module_& m) {
  // The flags' values with their defaults, as eie.train reads its keywords.
  py::class_<TrainSettings>(m, "TrainSettings",
                            "eie train's flags as fields (`_` for `-`), with their defaults")
      .def(py::init<>())
      .def_readwrite("n", &TrainSettings::n)
      .def_readwrite("sizes", &TrainSettings::sizes)
      .def_readwrite("epochs", &TrainSettings::epochs)
      .def_readwrite("steps", &TrainSettings::steps)
      .def_readwrite("batch", &TrainSettings::batch)
      .def_readwrite("lr", &TrainSettings::lr)
      .def_readwrite("lr_decay", &TrainSettings::lr_decay)
      .def_readwrite("paper_lr", &TrainSettings::paper_lr)
      .def_readwrite("time_budget", &TrainSettings::time_budget)
      .def_readwrite("cpu_budget", &TrainSettings::cpu_budget)
      .def_readwrite("run_budget", &TrainSettings::run_budget)
      .def_readwrite("stop_after", &TrainSettings::stop_after)
      .def_readwrite("val_size", &TrainSettings::val_size)
      .def_readwrite("baseline_eval_size", &TrainSettings::baseline_eval_size)
      .def_readwrite("warmup_epochs", &TrainSettings::warmup_epochs)
      .def_readwrite("embed_dim", &TrainSettings::embed_dim)
      .def_readwrite("heads", &TrainSettings::heads)
      .def_readwrite("layers", &TrainSettings::layers)
      .def_readwrite("ff_hidden", &TrainSettings::ff_hidden)
      .def_readwrite("normalization", &TrainSettings::normalization)
      .def_readwrite("cosine", &TrainSettings::cosine)
      .def_readwrite("bias_init", &TrainSettings::bias_init)
      .def_readwrite("bias_learn", &TrainSettings::bias_learn)
      .def_readwrite("bias_growth", &TrainSettings::bias_growth)
      .def_readwrite("bias_lr", &TrainSettings::bias_lr)
      .def_readwrite("init", &TrainSettings::init)
      .def_readwrite("out", &TrainSettings::out)
      .def_readwrite("resume", &TrainSettings::resume)
      .def_readwrite("teacher", &TrainSettings::teacher)
      .def_readwrite("baseline", &TrainSettings::baseline)
      .def_readwrite("starts", &TrainSettings::starts)
      .def_readwrite("augment", &TrainSettings::augment)
      .def_readwrite("learn_first", &TrainSettings::learn_first);
  m.def("train", &run_training, py::kw_only(), py::arg("problem") = default_problem(),
        py::arg("options") = py::dict(), py::arg("on_epoch") = py::none(), py::arg("seed") = 1234,
        py::arg("device") = "cpu", py::arg("threads") = py::none(),
        "Trains a policy as `eie train` does: every flag a keyword (n=, epochs=, batch=, "
        "out=, ...; the fields of eie.TrainSettings, with their defaults). on_epoch(row) "
        "is called with each epoch's log row (a dict) once it and the checkpoint are "
        "written; returning False ends the run there. Returns the model file's path.");
}

}  // namespace eie::python
