// What the repository itself keeps true: the flag reference is what the binary prints,
// and the tracked tree stays light enough to clone and to carry to a GPU machine.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_support.h"

namespace eie {
namespace {

// Everything `command` prints on stdout (empty when it cannot run).
std::string output_of(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, got);
  ::pclose(pipe);
  return out;
}

TEST(Repository, CommandsReferenceIsWhatTheBinaryPrints) {
  const auto path = std::filesystem::path(EIE_SOURCE_DIR) / "docs" / "commands.md";
  std::ifstream in(path);
  std::stringstream committed;
  committed << in.rdbuf();
  const auto printed = output_of(std::string(EIE_BINARY) + " help --markdown");
  ASSERT_FALSE(printed.empty());
  EXPECT_EQ(committed.str(), printed)
      << "docs/commands.md differs from `eie help --markdown`: regenerate it with\n"
         "  build/src/cli/eie help --markdown > docs/commands.md";
}

// Tracked files under 48 MB (a GPU machine takes 64 MiB with what a call carries), and
// at most one checkpoint (a run in progress); the rest of a run stays in git history.
TEST(Repository, TrackedTreeIsLight) {
  const std::string git = "git -C " + std::string(EIE_SOURCE_DIR);
  if (output_of(git + " rev-parse --is-inside-work-tree 2>/dev/null").empty()) {
    GTEST_SKIP() << "not a git checkout: the tracked tree cannot be listed";
  }
  const auto files = output_of(git + " ls-files -z | tr '\\0' '\\n'");
  uintmax_t bytes = 0;
  int checkpoints = 0;
  std::istringstream lines(files);
  for (std::string file; std::getline(lines, file);) {
    std::error_code missing;  // deleted but not yet committed: not in the next tree
    const auto size =
        std::filesystem::file_size(std::filesystem::path(EIE_SOURCE_DIR) / file, missing);
    if (!missing) bytes += size;
    checkpoints += std::filesystem::path(file).filename() == "checkpoint.h5";
  }
  EXPECT_LT(bytes, uintmax_t{48} << 20) << "tracked files: " << bytes << " bytes";
  EXPECT_LE(checkpoints, 1) << "tracked checkpoints";
}

}  // namespace
}  // namespace eie
