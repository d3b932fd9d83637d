#include "src/util/temporary_directory.h"

#include <stdlib.h>

#include <stdexcept>

#include "src/util/remove_tree.h"

namespace eie {

TemporaryDirectory::TemporaryDirectory(const std::string& prefix) {
  auto pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("no temporary directory could be made in " +
                             std::filesystem::temp_directory_path().string());
  }
  path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() { (void)remove_tree(path_); }

}  // namespace eie
