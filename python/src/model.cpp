#include "python/src/model.h"

#include <mutex>

#include "src/agent/model_file.h"
#include "src/agent/solve_run.h"
#include "src/nn/module_state.h"

namespace eie::python {

namespace {

// How attention is set and how a batch is solved: Model.solve's and eie.solve_file's
// keyword arguments, each as the CLI flag of the same name.
struct SolveArguments {
  SolveSettings settings;
  AttentionSpec spec;
  BiasSpec bias;
  bool window_chosen = false;
};

SolveArguments solve_arguments(const std::optional<std::string>& decode,
                               const std::optional<std::string>& scale, const std::string& scale_at,
                               const std::optional<std::string>& bias,
                               const std::optional<int64_t>& window, const std::string& window_at,
                               const std::optional<std::string>& improve, double time_limit,
                               const std::optional<int64_t>& batch, int64_t seed) {
  SolveArguments a;
  a.settings.decode = decode.value_or("");
  a.settings.improve = improve.value_or("");
  a.settings.time_limit = time_limit;
  if (batch && *batch < 1) {
    throw std::invalid_argument("--batch must be >= 1, got " + std::to_string(*batch));
  }
  a.settings.batch = batch.value_or(0);
  a.settings.seed = seed_of(seed);
  a.spec.scale = scale.value_or("");
  a.spec.scope = parse_scale_scope(scale_at);
  if (window && *window < 0) {
    throw std::invalid_argument("--window must be >= 0, got " + std::to_string(*window));
  }
  a.spec.window = window.value_or(0);
  a.spec.parts = window_at;
  a.window_chosen = window.has_value();
  a.bias = parse_bias_spec(bias.value_or(""));
  return a;
}

// A model file's policy, bound to its problem; one solve at a time (the attention
// setting is the agent's state).
class Model {
 public:
  Model(const std::string& path, const ProblemOptions& options, const std::string& device)
      : path_(path) {
    require_file(path);
    problem_ = make_problem(model_problem(path), options);
    agent_ = load_agent(path, problem_);
    agent_->network().to(device_of(device));
  }

  [[nodiscard]] std::string problem() const { return problem_->name(); }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] py::dict spec() const {
    py::dict out;
    for (const auto& [name, value] : agent_->spec()) {
      std::visit([&](const auto& v) { out[py::str(name)] = v; }, value);
    }
    return out;
  }
  [[nodiscard]] std::string architecture() const {
    return std::get<std::string>(agent_->spec().at("policy"));
  }
  [[nodiscard]] std::string fingerprint() const {
    return nn::module_fingerprint(agent_->network());
  }
  [[nodiscard]] std::string device() const { return agent_->device().str(); }

  // Solves a batch: the solution tensors, "cost" and the problem's other measures.
  [[nodiscard]] std::map<std::string, torch::Tensor> solve(const Instances& instances,
                                                           const SolveArguments& a) {
    check_instances(problem_descriptor(problem_->name()), *problem_, instances);
    const std::lock_guard<std::mutex> lock(mutex_);
    set_inference_attention(*agent_, a.spec, a.bias, problem_->size(instances), a.window_chosen);
    const auto run = solve_instances(agent_.get(), *problem_, instances, a.settings);
    return results(*problem_, instances, run);
  }

  // The solution tensors, "cost" and the problem's other measures of `run`.
  static std::map<std::string, torch::Tensor> results(const Problem& problem,
                                                      const Instances& instances,
                                                      const SolveRun& run) {
    const auto cpu = instances.to(torch::kCPU);
    const auto& solution = problem_descriptor(problem.name()).solution;
    auto out = solution ? solution(cpu, run.actions) : SolutionTensors{{"actions", run.actions}};
    out["cost"] = run.costs;
    for (const auto& [name, values] : problem.measures(cpu, run.costs)) out[name] = values;
    return out;
  }

 private:
  std::string path_;                        // the model file
  std::shared_ptr<const Problem> problem_;  // what it was trained for
  std::unique_ptr<Agent> agent_;            // the policy
  std::mutex mutex_;                        // held while a solve sets and uses the agent
};

// eie.solve_file: an instance file as `eie solve FILE` solves it (the default time
// limit when neither decode nor improve is given), its measures in the file's convention.
py::dict solve_file(const std::filesystem::path& path,
                    const std::optional<std::filesystem::path>& model, const std::string& method,
                    SolveArguments a, const std::optional<double>& time_limit,
                    const std::optional<std::filesystem::path>& out, const std::string& device) {
  require_file(path);
  std::map<std::string, torch::Tensor> tensors;
  std::map<std::string, double> measures;
  std::vector<std::string> notes;
  double seconds = 0;
  {
    const py::gil_scoped_release release;
    const auto file = read_instance_file(path);
    notes = file->notes();
    const auto problem = file->problem();
    const auto instances = file->instances();
    a.settings.method = method;
    a.settings.time_limit =
        time_limit ? *time_limit : file_time_limit(a.settings, problem->size(instances));
    std::unique_ptr<Agent> agent;
    if (method == "am") {
      const auto model_path =
          model.value_or(std::filesystem::path(EIE_MODELS_DIR) / (problem->name() + "100.h5"));
      require_file(model_path);
      agent = load_agent(model_path, problem);
      agent->network().to(device_of(device));
      set_inference_attention(*agent, a.spec, a.bias, problem->size(instances), a.window_chosen);
    }
    const auto run = solve_instances(agent.get(), *problem, instances, a.settings);
    tensors = Model::results(*problem, instances, run);
    measures = file->measures(run.actions[0]);
    seconds = run.seconds;
    if (out) file->write_solution(*out, run.actions[0]);
  }
  auto result = dict_of(tensors);
  for (const auto& [name, value] : measures) result[py::str(name)] = value;  // file's convention
  result["seconds"] = seconds;
  result["notes"] = notes;
  return result;
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<Model>(m, "Model", "A trained policy from a model file, bound to its problem.")
      .def_property_readonly("problem", &Model::problem, "the problem it was trained for")
      .def_property_readonly("architecture", &Model::architecture, "the policy family")
      .def_property_readonly("spec", &Model::spec,
                             "the file's attributes: sizes, training length, trained bias")
      .def_property_readonly("fingerprint", &Model::fingerprint,
                             "16 hex digits that change with any parameter")
      .def_property_readonly("path", &Model::path)
      .def_property_readonly("device", &Model::device)
      .def(
          "solve",
          [](Model& model, const py::dict& instances, const std::optional<std::string>& decode,
             const std::optional<std::string>& scale, const std::string& scale_at,
             const std::optional<std::string>& bias, const std::optional<int64_t>& window,
             const std::string& window_at, const std::optional<std::string>& improve,
             double time_limit, const std::optional<int64_t>& batch, int64_t seed,
             const std::optional<int64_t>& threads) {
            const auto batch_of = instances_of(instances);
            const auto a = solve_arguments(decode, scale, scale_at, bias, window, window_at,
                                           improve, time_limit, batch, seed);
            use_threads(threads);
            std::map<std::string, torch::Tensor> out;
            {
              const py::gil_scoped_release release;
              out = model.solve(batch_of, a);
            }
            return dict_of(out);
          },
          py::arg("instances"), py::kw_only(), py::arg("decode") = py::none(),
          py::arg("scale") = py::none(), py::arg("scale_at") = "all", py::arg("bias") = py::none(),
          py::arg("window") = py::none(), py::arg("window_at") = "all",
          py::arg("improve") = py::none(), py::arg("time_limit") = 0.0,
          py::arg("batch") = py::none(), py::arg("seed") = 1234, py::arg("threads") = py::none(),
          "Solves a batch of instances ({field: tensor}); returns {name: tensor}.");

  m.def(
      "load",
      [](const std::filesystem::path& path, const py::dict& options, const std::string& device) {
        const auto problem_options = options_of(options);
        const py::gil_scoped_release release;
        return std::make_unique<Model>(path.string(), problem_options, device);
      },
      py::arg("path"), py::arg("options") = py::dict(), py::arg("device") = "cpu",
      "The model file at `path` (eie train's model.h5 or a shipped model).");

  m.def(
      "solve_file",
      [](const std::filesystem::path& path, const std::optional<std::filesystem::path>& model,
         const std::string& method, const std::optional<std::string>& decode,
         const std::optional<std::string>& scale, const std::string& scale_at,
         const std::optional<std::string>& bias, const std::optional<int64_t>& window,
         const std::string& window_at, const std::optional<std::string>& improve,
         const std::optional<double>& time_limit, const std::optional<int64_t>& batch, int64_t seed,
         const std::optional<int64_t>& threads, const std::optional<std::filesystem::path>& out,
         const std::string& device) {
        auto a = solve_arguments(decode, scale, scale_at, bias, window, window_at, improve,
                                 time_limit.value_or(0), batch, seed);
        use_threads(threads);
        return solve_file(path, model, method, std::move(a), time_limit, out, device);
      },
      py::arg("path"), py::kw_only(), py::arg("model") = py::none(), py::arg("method") = "am",
      py::arg("decode") = py::none(), py::arg("scale") = py::none(), py::arg("scale_at") = "all",
      py::arg("bias") = py::none(), py::arg("window") = py::none(), py::arg("window_at") = "all",
      py::arg("improve") = py::none(), py::arg("time_limit") = py::none(),
      py::arg("batch") = py::none(), py::arg("seed") = 1234, py::arg("threads") = py::none(),
      py::arg("out") = py::none(), py::arg("device") = "cpu",
      "Solves an instance file (.tsp, .vrp, .bpp) as `eie solve FILE` does.");
}

}  // namespace eie::python
