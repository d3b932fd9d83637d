#include "src/io/h5_layout.h"

#include <fstream>
#include <stdexcept>

namespace eie::h5 {

FileLayout layout_of(hid_t file, const std::filesystem::path& path) {
  FileLayout layout;
  layout.path = path;
  layout.bytes = std::filesystem::file_size(path);
  const hid_t creation = H5Fget_create_plist(file);
  hsize_t user_block = 0;
  if (creation < 0 || H5Pget_sizes(creation, &layout.address_bytes, &layout.length_bytes) < 0 ||
      H5Pget_userblock(creation, &user_block) < 0) {
    if (creation >= 0) H5Pclose(creation);
    throw std::invalid_argument(
        "cannot be read: the file's layout (address and length widths) is unreadable");
  }
  H5Pclose(creation);
  layout.base = user_block;
  return layout;
}

uint64_t little_endian(const uint8_t* bytes, size_t width) {
  uint64_t value = 0;
  for (size_t i = width; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

std::vector<uint8_t> read_bytes(const FileLayout& file, uint64_t address, uint64_t size,
                                const std::string& what) {
  const auto where = what + " at " + std::to_string(address);
  if (file.base > file.bytes || address > file.bytes - file.base ||
      size > file.bytes - file.base - address) {
    throw std::invalid_argument(where + ", past the end of the file");
  }
  std::ifstream in(file.path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(file.base + address));
  std::vector<uint8_t> bytes(size);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) throw std::invalid_argument(where + " that cannot be read");
  return bytes;
}

}  // namespace eie::h5
