#include <gtest/gtest.h>
#include <torch/torch.h>

#include "test_support.h"

namespace eie::test {
std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("eie-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace eie::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  torch::set_num_threads(1);  // ctest runs suites in parallel
  return RUN_ALL_TESTS();
}
