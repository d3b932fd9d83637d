// A fourth problem registered from tests/ alone (no change to src/, problems/ or
// policies/), generated and solved through the CLI's own commands in process:
// the registry is the only way in.
//
// "line": n points on [0, 1]; a solution visits every point once and returns to
// the first; its cost is the distance travelled. Visiting them sorted costs
// 2 (max - min), the optimum.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "src/cli/commands.h"
#include "src/io/dataset.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

class LineProblem final : public Problem {
 public:
  [[nodiscard]] std::string name() const override { return "line"; }
  [[nodiscard]] Instances generate(int64_t count, int64_t n,
                                   torch::Generator& generator) const override {
    return Instances({{"x", torch::rand({count, n}, generator)}});
  }
  void validate(const Instances& instances) const override {
    if (instances.at("x").dim() != 2) throw std::invalid_argument("x must be [count, n]");
  }
  [[nodiscard]] int64_t size(const Instances& instances) const override {
    return instances.at("x").size(1);
  }
  [[nodiscard]] torch::Tensor check(const Instances& instances,
                                    const torch::Tensor& actions) const override {
    const auto x = instances.at("x").to(torch::kDouble);
    const auto sorted = std::get<0>(actions.sort(1));
    if (!torch::equal(sorted, torch::arange(size(instances)).expand_as(sorted))) {
      throw std::logic_error("line: a solution must visit every point once");
    }
    const auto visited = x.gather(1, actions);
    return (visited - visited.roll(1, 1)).abs().sum(1);
  }
  [[nodiscard]] torch::Tensor start_actions(const Instances& instances, int64_t K) const override {
    return spread_choices(size(instances), K, instances.at("x").device())
        .expand({instances.count(), K});
  }
  [[nodiscard]] Instances permute(const Instances& instances,
                                  const torch::Tensor& perm) const override {
    return instances.with("x", instances.at("x").index_select(1, perm));
  }
  [[nodiscard]] torch::Tensor unpermute(const torch::Tensor& actions,
                                        const torch::Tensor& perm) const override {
    return perm.index({actions});
  }
  [[nodiscard]] std::vector<Instances> symmetries(const Instances& instances) const override {
    return {instances, instances.with("x", 1 - instances.at("x"))};
  }
  [[nodiscard]] torch::Tensor construct(const std::string& method,
                                        const Instances& instances) const override {
    if (method == "sorted") return std::get<1>(instances.at("x").sort(1));
    if (method == "given") return torch::arange(size(instances)).expand({instances.count(), -1});
    throw std::invalid_argument("unknown line method '" + method + "' (sorted, given)");
  }
  [[nodiscard]] torch::Tensor improve(const std::string& method, const Instances&,
                                      const torch::Tensor&) const override {
    throw std::invalid_argument("line has no local search '" + method + "'");
  }
};

ProblemDescriptor line_descriptor() {
  ProblemDescriptor d;
  d.name = "line";
  d.counts = "points on a line";
  d.make = [](const ProblemOptions&) { return std::make_shared<LineProblem>(); };
  return d;
}

[[maybe_unused]] const bool registered = register_problem(line_descriptor());

int run(int (*command)(int, char**), std::vector<std::string> words) {
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  return command(static_cast<int>(argv.size()), argv.data());
}

TEST(ToyProblem, RegisteredFromTestsAloneAndSolvedThroughTheCli) {
  const auto path = (test::scratch_dir("toy-line") / "line.h5").string();
  testing::internal::CaptureStdout();
  ASSERT_EQ(run(cli::run_gen, {"gen", "--problem", "line", "--n", "7", "--count", "5", "--out", path}), 0);
  (void)testing::internal::GetCapturedStdout();
  const auto x = read_dataset(path).instances.at("x").to(torch::kDouble);
  const double optimum = (2 * (std::get<0>(x.max(1)) - std::get<0>(x.min(1)))).mean().item<double>();
  for (const auto* method : {"sorted", "given"}) {
    testing::internal::CaptureStdout();
    ASSERT_EQ(run(cli::run_solve, {"solve", "--dataset", path, "--method", method, "--json"}), 0);
    const auto report = nlohmann::json::parse(testing::internal::GetCapturedStdout());
    EXPECT_EQ(report["count"].get<int64_t>(), 5) << method;
    if (std::string(method) == "sorted") {
      EXPECT_NEAR(report["mean_cost"].get<double>(), optimum, 1e-9);
    } else {
      EXPECT_GT(report["mean_cost"].get<double>(), optimum);  // random points, given order
    }
  }
  // An option the problem does not have is refused, naming it.
  EXPECT_THROW((void)make_problem("line", {{"capacity", "20"}}), std::invalid_argument);
}

}  // namespace
}  // namespace eie
