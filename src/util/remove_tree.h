#pragma once

#include <filesystem>

namespace eie {

// Removes `path` and everything under it, symbolic links as links (never what they
// point to); a missing path is no error. Returns false when something could not be
// removed. (std::filesystem::remove_all is not used: in the CUDA LibTorch of PyTorch's
// wheels, libtorch.so exports its own copy of it, which the loader binds first and which
// crashes, jumping to address 0.)
bool remove_tree(const std::filesystem::path& path) noexcept;

}  // namespace eie
