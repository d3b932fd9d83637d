#pragma once

// Thin HDF5 layer: named tensors as datasets (slashes make groups) and scalar
// attributes on the root group. Readable and writable with h5py.

#include <torch/torch.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/util/atomic_path.h"
#include "src/util/attributes.h"

namespace H5 {
class H5File;
}

namespace eie::h5 {

using eie::Attribute;

// Writes a new file atomically: nothing appears at the target until commit().
class Writer {
 public:
  explicit Writer(const std::filesystem::path& target);
  ~Writer();
  // Stores a float32, float64, int32, int64 or uint8 tensor (bool is stored as uint8).
  void write(const std::string& name, const torch::Tensor& tensor);
  void attribute(const std::string& name, const Attribute& value);
  void commit();

 private:
  AtomicPath path_;                   // temporary file renamed on commit
  std::unique_ptr<H5::H5File> file_;  // open handle on the temporary file
};

class Reader {
 public:
  explicit Reader(const std::filesystem::path& path);
  ~Reader();

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] bool has(const std::string& name) const;
  // Reads a dataset into a CPU tensor of the matching dtype; throws naming file and dataset.
  [[nodiscard]] torch::Tensor read(const std::string& name) const;
  // Names of the datasets directly in `group`.
  [[nodiscard]] std::vector<std::string> datasets(const std::string& group = "/") const;

  [[nodiscard]] bool has_attribute(const std::string& name) const;
  // Variable- or fixed-length strings (h5py writes the former, eie the latter), at
  // most 1 MiB and never longer than the file.
  [[nodiscard]] std::string string_attribute(const std::string& name) const;
  [[nodiscard]] int64_t int_attribute(const std::string& name) const;
  [[nodiscard]] double double_attribute(const std::string& name) const;

 private:
  std::filesystem::path path_;        // for error messages
  uint64_t file_bytes_ = 0;           // what no read may exceed
  std::unique_ptr<H5::H5File> file_;  // open read-only
  mutable bool attributes_checked_ = false;  // the root's attribute messages, by eie
};

}  // namespace eie::h5
