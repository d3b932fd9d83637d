#pragma once

#include <filesystem>
#include <string>

namespace eie {

// A fresh directory under TMPDIR that only this process writes to (mkdtemp), removed
// with everything in it. Throws std::runtime_error when none can be made.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& prefix = "eie");
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace eie
