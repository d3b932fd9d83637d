#include "src/util/atomic_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <system_error>

namespace eie {

namespace {

// This process's descriptor that `path` names (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N), if any: writing there must reach the descriptor itself, whatever
// it is open on (reopening a redirected file would rewind it or lose its append mode).
std::optional<int> own_descriptor(const std::filesystem::path& path) {
  const auto text = path.lexically_normal().string();
  if (text == "/dev/stdout") return 1;
  if (text == "/dev/stderr") return 2;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string p = prefix;
    if (text.rfind(p, 0) != 0 || text.size() == p.size()) continue;
    const auto digits = text.substr(p.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) {
      return std::nullopt;
    }
    return std::atoi(digits.c_str());
  }
  return std::nullopt;
}

// Where a chain of symbolic links starting at `path` ends (the path itself when it is
// no link); the end may not exist yet (a dangling link: the file is made there).
std::filesystem::path link_end(std::filesystem::path path) {
  for (int hops = 0; std::filesystem::is_symlink(path); ++hops) {
    if (hops == 40) throw std::invalid_argument(path.string() + ": too many levels of links");
    const auto next = std::filesystem::read_symlink(path);
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path;
}

// Copies all of `from` into descriptor `fd`; errno set on failure.
bool copy_into(const std::filesystem::path& from, int fd) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;
  char buffer[1 << 16];
  bool ok = true;
  for (;;) {
    const auto got = ::read(in, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      ok = got == 0;
      break;
    }
    for (ssize_t done = 0; ok && done < got;) {
      const auto wrote = ::write(fd, buffer + done, static_cast<size_t>(got - done));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0)
        ok = false;
      else
        done += wrote;
    }
    if (!ok) break;
  }
  const int saved = errno;
  ::close(in);
  errno = saved;
  return ok;
}

}  // namespace

AtomicPath::AtomicPath(std::filesystem::path target) : target_(std::move(target)) {
  if (target_.empty()) throw std::invalid_argument("output path is empty");
  struct stat info {};
  const auto descriptor = own_descriptor(target_);
  const bool special = ::stat(target_.c_str(), &info) == 0 &&
                       (S_ISFIFO(info.st_mode) || S_ISCHR(info.st_mode) || S_ISSOCK(info.st_mode));
  if (descriptor || special) {
    stream_ = true;
    stream_fd_ = descriptor.value_or(-1);
    auto pattern = (std::filesystem::temp_directory_path() / "eie-out-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      throw std::runtime_error(target_.string() + ": no temporary file under " +
                               std::filesystem::temp_directory_path().string() + ": " +
                               std::strerror(errno));
    }
    ::close(fd);
    temporary_ = pattern;
    return;
  }
  final_ = link_end(target_);
  const auto parent = final_.has_parent_path() ? final_.parent_path() : ".";
  if (!std::filesystem::is_directory(parent)) {
    throw std::invalid_argument(target_.string() + ": directory " + parent.string() +
                                " does not exist");
  }
  temporary_ = final_;
  temporary_ += ".tmp-" + std::to_string(::getpid());
}

AtomicPath::~AtomicPath() {
  if (!committed_ || stream_) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicPath::write(const std::string& content) {
  const auto fail = [&](const char* what) {
    const std::string reason = std::strerror(errno);
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    throw std::runtime_error(target_.string() + ": " + what + " failed: " + reason);
  };
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("opening for writing");
  for (size_t done = 0; done < content.size();) {
    const auto wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      if (wrote == 0) errno = EIO;
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail("write");
    }
    done += static_cast<size_t>(wrote);
  }
  if (::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("write");
  }
  if (::close(fd) != 0) fail("write");
}

void AtomicPath::commit() {
  if (stream_) {
    const int fd = stream_fd_ >= 0 ? stream_fd_ : ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && copy_into(temporary_, fd);
    const int saved = errno;
    if (fd >= 0 && stream_fd_ < 0) ::close(fd);
    if (!ok) {
      throw std::runtime_error(target_.string() + ": cannot write: " + std::strerror(saved));
    }
    committed_ = true;
    return;
  }
  if (std::filesystem::is_directory(final_)) {
    throw std::runtime_error(target_.string() + ": is a directory, expected a file name");
  }
  std::error_code error;
  std::filesystem::rename(temporary_, final_, error);
  if (error) {
    throw std::runtime_error(target_.string() + ": cannot write: " + error.message());
  }
  committed_ = true;
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  AtomicPath out(path);
  out.write(content);
  out.commit();
}

}  // namespace eie
