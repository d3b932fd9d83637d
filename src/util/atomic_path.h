#pragma once

#include <filesystem>
#include <string>

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
  // Writes `content` to the temporary file, checking every write, the flush to disk
  // and the close: throws std::runtime_error naming the target and the reason (a
  // full disk, say) and removes the temporary.
  void write(const std::string& content);
  // Renames the temporary over the target; throws std::runtime_error with the reason.
  void commit();

 private:
  std::filesystem::path target_;     // the path users asked for
  std::filesystem::path temporary_;  // where the content is written first
  bool committed_ = false;           // true once renamed over target_
};

// `content` written to `path` through an AtomicPath: all of it, or nothing.
void write_file(const std::filesystem::path& path, const std::string& content);

}  // namespace eie
