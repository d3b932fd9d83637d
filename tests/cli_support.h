#pragma once

// Running the real `eie` binary from tests, and the files those runs need.

#include <filesystem>
#include <string>

namespace eie::test {

struct Run {
  int exit_code;       // of the eie process
  std::string stderr;  // everything it printed there
  std::string stdout;  // everything it printed there
};

// Runs `eie ARGS --threads 1` and captures both streams; `environment` (shell assignments,
// e.g. "NAME=value") for that process alone.
[[nodiscard]] Run eie(const std::string& args, const std::string& environment = "");

[[nodiscard]] std::string slurp(const std::filesystem::path& path);

// tests/data/broken/NAME.
[[nodiscard]] std::filesystem::path broken(const std::string& name);

// A small valid model file with a network for `network_problem`, recording
// `recorded_problem` (a mismatch tests the model/problem check).
[[nodiscard]] std::filesystem::path model_file(const std::filesystem::path& dir,
                                               const std::string& network_problem,
                                               const std::string& recorded_problem);

// Exit code != 0 and exactly one stderr line, saying "error" and `fragment`.
void expect_clean_failure(const Run& run, const std::string& fragment);

}  // namespace eie::test
