#include "src/util/remove_tree.h"

#include <ftw.h>
#include <stdio.h>

#include <cerrno>

namespace eie {

namespace {
int remove_entry(const char* path, const struct stat* /*info*/, int /*type*/, struct FTW* /*at*/) {
  return ::remove(path) == 0 ? 0 : -1;  // children first (FTW_DEPTH): directories are empty
}
}  // namespace

bool remove_tree(const std::filesystem::path& path) noexcept {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return errno == ENOENT;
  return ::nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

}  // namespace eie
