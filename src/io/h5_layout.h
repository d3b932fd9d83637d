#pragma once

// What eie's own readers of HDF5 structures (src/io/h5_global_heap.h,
// src/io/h5_attribute_check.h) need to know about a file, and reading its bytes at
// HDF5 addresses, checked against its size.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace eie::h5 {

struct FileLayout {
  std::filesystem::path path;  // read directly
  uint64_t bytes = 0;          // file size
  uint64_t base = 0;           // where HDF5's addresses start (after a user block)
  size_t address_bytes = 8;    // width of an address in the file
  size_t length_bytes = 8;     // width of a length in the file
};

[[nodiscard]] FileLayout layout_of(hid_t file, const std::filesystem::path& path);

// The unsigned little-endian number of `width` (at most 8) bytes at `bytes`.
[[nodiscard]] uint64_t little_endian(const uint8_t* bytes, size_t width);

// `size` bytes at HDF5 address `address`. Throws std::invalid_argument ("<what> at
// <address>, past the end of the file" or "... that cannot be read").
[[nodiscard]] std::vector<uint8_t> read_bytes(const FileLayout& file, uint64_t address,
                                              uint64_t size, const std::string& what);

}  // namespace eie::h5
