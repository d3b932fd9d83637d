#include "src/util/temporary_directory.h"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

namespace eie {

TemporaryDirectory::TemporaryDirectory(const std::string& prefix) {
  auto pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("no temporary directory could be made in " +
                             std::filesystem::temp_directory_path().string());
  }
  path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace eie
