#include "src/util/atomic_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace eie {

AtomicPath::AtomicPath(std::filesystem::path target) : target_(std::move(target)) {
  if (target_.empty()) throw std::invalid_argument("output path is empty");
  const auto parent = target_.has_parent_path() ? target_.parent_path() : ".";
  if (!std::filesystem::is_directory(parent)) {
    throw std::invalid_argument(target_.string() + ": directory " + parent.string() +
                                " does not exist");
  }
  temporary_ = target_;
  temporary_ += ".tmp-" + std::to_string(::getpid());
}

AtomicPath::~AtomicPath() {
  if (!committed_) {
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
  if (std::filesystem::is_directory(target_)) {
    throw std::runtime_error(target_.string() + ": is a directory, expected a file name");
  }
  std::error_code error;
  std::filesystem::rename(temporary_, target_, error);
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
