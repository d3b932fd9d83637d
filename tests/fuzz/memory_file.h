#pragma once

// HDF5 opens files by path: a fuzz input becomes a file in /dev/shm (memory, no
// disk writes), one per process so that parallel fuzzing jobs do not collide.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace eie::fuzz {

inline std::filesystem::path memory_file(const uint8_t* data, size_t size) {
  const std::filesystem::path path = "/dev/shm/eie-fuzz-" + std::to_string(getpid()) + ".h5";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace eie::fuzz
