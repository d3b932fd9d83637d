#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include "test_support.h"
#include "util/heap.h"

namespace eie::test {
std::filesystem::path scratch_dir(const std::string& name) {
  // Unique per process and test: ctest runs tests in parallel.
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string unique = name + "-" + std::to_string(::getpid());
  if (test != nullptr) unique += std::string("-") + test->test_suite_name() + "-" + test->name();
  for (auto& c : unique) {
    if (c == '/') c = '_';
  }
  const auto dir = std::filesystem::temp_directory_path() / ("eie-test-" + unique);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace eie::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  eie::keep_freed_memory();
  torch::set_num_threads(1);  // ctest runs suites in parallel
  return RUN_ALL_TESTS();
}
