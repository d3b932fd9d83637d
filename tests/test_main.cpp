#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/util/blas_kernels.h"
#include "src/util/heap.h"
#include "src/util/remove_tree.h"
#include "tests/test_support.h"

namespace eie::test {
namespace {
std::vector<std::filesystem::path>& scratch_dirs_of_this_test() {
  static std::vector<std::filesystem::path> dirs;
  return dirs;
}

// Removes a test's scratch directories when it passes; a failed test keeps
// them, so its files can be inspected.
class ScratchCleaner : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& test) override {
    if (test.result()->Passed()) {
      // A directory left behind is no test failure.
      for (const auto& dir : scratch_dirs_of_this_test()) (void)remove_tree(dir);
    }
    scratch_dirs_of_this_test().clear();
  }
};
}  // namespace

std::filesystem::path scratch_dir(const std::string& name) {
  // Unique per process and test: ctest runs tests in parallel.
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string unique = name + "-" + std::to_string(::getpid());
  if (test != nullptr) unique += std::string("-") + test->test_suite_name() + "-" + test->name();
  for (auto& c : unique) {
    if (c == '/') c = '_';
  }
  const auto dir = std::filesystem::temp_directory_path() / ("eie-test-" + unique);
  if (!remove_tree(dir)) throw std::runtime_error("cannot clear " + dir.string());
  std::filesystem::create_directories(dir);
  scratch_dirs_of_this_test().push_back(dir);
  return dir;
}
}  // namespace eie::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Calibrations the tests (and the eie processes they start) measure stay out of the
  // user's cache: a folder per test process.
  const auto cache =
      std::filesystem::temp_directory_path() / ("eie-test-cache-" + std::to_string(::getpid()));
  ::setenv("EIE_CACHE_DIR", cache.c_str(), 1);
  ::testing::UnitTest::GetInstance()->listeners().Append(new eie::test::ScratchCleaner);
  eie::use_native_blas_kernels();
  eie::keep_freed_memory();
  torch::set_num_threads(1);  // ctest runs suites in parallel
  const int status = RUN_ALL_TESTS();
  (void)eie::remove_tree(cache);
  return status;
}
