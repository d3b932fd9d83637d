#include "tests/cli_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/agent/policy_registry.h"
#include "src/io/h5_file.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie::test {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Run eie(const std::string& args, const std::string& environment) {
  const auto dir = scratch_dir("cli-run");
  const auto out = dir / "stdout", err = dir / "stderr";
  const std::string command = environment + " " + EIE_BINARY + " " + args + " --threads 1 >" +
                              out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  return {WEXITSTATUS(status), slurp(err), slurp(out)};
}

std::filesystem::path broken(const std::string& name) {
  return std::filesystem::path(EIE_TEST_DATA) / "broken" / name;
}

std::filesystem::path model_file(const std::filesystem::path& dir,
                                 const std::string& network_problem,
                                 const std::string& recorded_problem) {
  NetworkOptions options;
  options.encoder.layers = 1;
  auto agent = make_agent(make_problem(network_problem), options, 20);
  auto spec = agent->spec();
  spec["problem"] = recorded_problem;
  const auto path = dir / (network_problem + "-as-" + recorded_problem + "-model.h5");
  h5::Writer writer(path);
  write_spec(writer, spec, "model");
  write_module(writer, "model", agent->network());
  writer.commit();
  return path;
}

void expect_clean_failure(const Run& run, const std::string& fragment) {
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.stderr.find(fragment), std::string::npos) << run.stderr;
  EXPECT_EQ(std::count(run.stderr.begin(), run.stderr.end(), '\n'), 1) << run.stderr;
  EXPECT_NE(run.stderr.find("error"), std::string::npos) << run.stderr;
}

}  // namespace eie::test
