#include "util/atomic_path.h"

#include <unistd.h>

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

void AtomicPath::commit() {
  std::filesystem::rename(temporary_, target_);
  committed_ = true;
}

}  // namespace eie
