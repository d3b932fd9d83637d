#pragma once

#include <filesystem>

namespace eie {

// A file written under a temporary sibling name and renamed over the target by
// commit(): a failure before commit() never leaves a half-written output.
class AtomicPath {
 public:
  explicit AtomicPath(std::filesystem::path target);
  AtomicPath(const AtomicPath&) = delete;
  AtomicPath& operator=(const AtomicPath&) = delete;
  ~AtomicPath();  // removes the temporary file unless committed

  [[nodiscard]] const std::filesystem::path& temporary() const { return temporary_; }
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  void commit();

 private:
  std::filesystem::path target_;     // the path users asked for
  std::filesystem::path temporary_;  // where the content is written first
  bool committed_ = false;           // true once renamed over target_
};

}  // namespace eie
