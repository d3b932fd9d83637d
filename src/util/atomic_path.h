#pragma once

#include <filesystem>
#include <string>

namespace eie {

// A file written under a temporary name and put in place by commit(): a failure before
// commit() never leaves a half-written output. What the target is decides how:
// - a new or regular file: the temporary is its sibling, renamed over it;
// - a symbolic link: written through, the temporary beside the file it points to
//   (renamed over that file: the link stays);
// - a FIFO, a character device, a socket, or /dev/stdout, /dev/stderr, /dev/fd/N,
//   /proc/self/fd/N: never replaced; commit() copies the temporary (under TMPDIR) into
//   it (into the process's own descriptor N for the last four).
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
  // Puts the temporary in place; throws std::runtime_error with the reason.
  void commit();

 private:
  std::filesystem::path target_;     // the path users asked for
  std::filesystem::path final_;      // the file renamed over (target_ or where its link points)
  std::filesystem::path temporary_;  // where the content is written first
  int stream_fd_ = -1;               // this process's descriptor to copy into (-1: none)
  bool stream_ = false;              // copied into target_ (not renamed over it)
  bool committed_ = false;           // true once in place
};

// `content` written to `path` through an AtomicPath: all of it, or nothing.
void write_file(const std::filesystem::path& path, const std::string& content);

}  // namespace eie
