#include "src/io/h5_global_heap.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace eie::h5 {

namespace {

// A variable-length descriptor as stored: 4 bytes of length, the address of a global
// heap collection, 4 bytes of object index. libhdf5 hands it over through a
// conversion to this opaque type, registered by eie, which copies it unread.
struct RawDescriptor {
  uint8_t size;       // bytes of `bytes` in use
  uint8_t bytes[31];  // the descriptor
};
constexpr char kRawTag[] = "eie: raw variable-length descriptor";

bool is_raw_type(hid_t type) {
  if (H5Tget_class(type) != H5T_OPAQUE) return false;
  char* tag = H5Tget_tag(type);
  const bool ours = tag != nullptr && std::strcmp(tag, kRawTag) == 0;
  H5free_memory(tag);
  return ours;
}

herr_t copy_descriptor(hid_t source, hid_t target, H5T_cdata_t* cdata, size_t count, size_t stride,
                       size_t, void* buffer, void*, hid_t) {
  switch (cdata->command) {
    case H5T_CONV_INIT:
      cdata->need_bkg = H5T_BKG_NO;
      return H5Tis_variable_str(source) > 0 && is_raw_type(target) ? 0 : -1;
    case H5T_CONV_CONV: {
      const size_t size = H5Tget_size(source);
      if (count != 1 || stride != 0 || size == 0 || size > sizeof(RawDescriptor::bytes)) return -1;
      RawDescriptor raw{};
      raw.size = static_cast<uint8_t>(size);
      std::memcpy(raw.bytes, buffer, size);
      std::memcpy(buffer, &raw, sizeof raw);
      return 0;
    }
    default:
      return 0;
  }
}

hid_t raw_descriptor_type() {
  static const hid_t type = [] {
    const hid_t raw = H5Tcreate(H5T_OPAQUE, sizeof(RawDescriptor));
    H5Tset_tag(raw, kRawTag);
    const hid_t string = H5Tcopy(H5T_C_S1);
    H5Tset_size(string, H5T_VARIABLE);
    H5Tregister(H5T_PERS_SOFT, "eie raw descriptor", string, raw, copy_descriptor);
    H5Tclose(string);
    return raw;
  }();
  return type;
}

uint64_t aligned(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

[[noreturn]] void wrong(const std::string& what) { throw std::invalid_argument(what); }

// The collection at `address` read whole, after its header is checked ("GCOL",
// version 1, a size that stays within the file).
std::vector<uint8_t> read_collection(const FileLayout& file, uint64_t address) {
  const std::string what = "points to a global heap collection";
  const auto where = what + " at " + std::to_string(address);
  const auto header = read_bytes(file, address, aligned(8 + file.length_bytes), what);
  if (std::memcmp(header.data(), "GCOL", 4) != 0 || header[4] != 1)
    wrong(where + " that is not one");
  const uint64_t size = little_endian(header.data() + 8, file.length_bytes);
  // libhdf5 loads at least this much of a collection, and never makes one smaller.
  constexpr uint64_t kSmallestCollection = 4096;
  if (size < kSmallestCollection || size > file.bytes - file.base - address) {
    wrong(where + " claiming " + std::to_string(size) + " bytes, which the file cannot hold");
  }
  return read_bytes(file, address, size, what);
}

// Walks the collection's objects as libhdf5 would (each one must end inside the
// collection, and none may be empty, or its walk would never end) and returns the
// bytes of object `index`.
std::string object_bytes(const std::vector<uint8_t>& collection, uint64_t index,
                         const FileLayout& file, uint64_t address) {
  const uint64_t object_header = aligned(8 + file.length_bytes);
  const uint64_t end = collection.size();
  const auto where = "global heap collection at " + std::to_string(address);
  bool found = false;
  std::string bytes;
  for (uint64_t at = aligned(8 + file.length_bytes); at < end;) {
    if (at + object_header > end) break;  // a tail too small for an object: free space
    const uint64_t id = little_endian(&collection[at], 2);
    const uint64_t size = little_endian(&collection[at + 8], file.length_bytes);
    const uint64_t span = size > end ? end + 1 : id == 0 ? size : object_header + aligned(size);
    if (span == 0 || span > end - at) {
      wrong("is stored in a " + where + " whose object " + std::to_string(id) + " claims " +
            std::to_string(size) + " bytes, more than the collection holds");
    }
    if (id == index && id != 0) {
      found = true;
      const auto data = collection.begin() + static_cast<std::ptrdiff_t>(at + object_header);
      bytes.assign(data, data + static_cast<std::ptrdiff_t>(size));
    }
    at += span;
  }
  if (!found) wrong("names object " + std::to_string(index) + " of a " + where + " that has none");
  return bytes;
}

}  // namespace

std::string read_variable_string(hid_t attribute, const FileLayout& file, uint64_t max_bytes) {
  RawDescriptor raw{};
  if (H5Aread(attribute, raw_descriptor_type(), &raw) < 0) wrong("cannot be read");
  if (raw.size != 8 + file.address_bytes || file.address_bytes > 8 || file.length_bytes > 8) {
    wrong("has a variable-length string of a layout eie does not know");
  }
  const uint64_t length = little_endian(raw.bytes, 4);
  const uint64_t address = little_endian(raw.bytes + 4, file.address_bytes);
  const uint64_t index = little_endian(raw.bytes + 4 + file.address_bytes, 4);
  if (address == 0) wrong("is a null string");
  if (length > std::min(max_bytes, file.bytes)) {
    wrong("claims a string of " + std::to_string(length) + " bytes in a file of " +
          std::to_string(file.bytes) + " bytes (at most " + std::to_string(max_bytes) +
          " allowed)");
  }
  auto value = object_bytes(read_collection(file, address), index, file, address);
  if (value.size() != length) {
    wrong("claims a string of " + std::to_string(length) + " bytes, but its stored value has " +
          std::to_string(value.size()));
  }
  return value;
}

}  // namespace eie::h5
