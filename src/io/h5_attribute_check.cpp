#include "src/io/h5_attribute_check.h"

#include <cstring>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace eie::h5 {

namespace {

constexpr unsigned kContinuationMessage = 0x10, kAttributeMessage = 0x0C;
constexpr uint8_t kSharedMessage = 0x02;  // message flag: the data refers to one stored elsewhere

[[noreturn]] void wrong(const std::string& what) { throw std::invalid_argument(what); }

uint64_t aligned(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

// Bob Jenkins' lookup3 hash (hashlittle, byte by byte; public domain), libhdf5's
// checksum of version 2 metadata.
uint32_t lookup3(const uint8_t* key, size_t length) {
  const auto rot = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  uint32_t a = 0xdeadbeef + static_cast<uint32_t>(length), b = a, c = a;
  const auto add = [&](const uint8_t* bytes, size_t count) {  // little-endian into a, b, c
    uint32_t* words[3] = {&a, &b, &c};
    for (size_t i = 0; i < count; ++i) *words[i / 4] += uint32_t{bytes[i]} << (8 * (i % 4));
  };
  for (; length > 12; length -= 12, key += 12) {
    add(key, 12);
    a -= c, a ^= rot(c, 4), c += b;
    b -= a, b ^= rot(a, 6), a += c;
    c -= b, c ^= rot(b, 8), b += a;
    a -= c, a ^= rot(c, 16), c += b;
    b -= a, b ^= rot(a, 19), a += c;
    c -= b, c ^= rot(b, 4), b += a;
  }
  if (length == 0) return c;
  add(key, length);
  c ^= b, c -= rot(b, 14);
  a ^= c, a -= rot(c, 11);
  b ^= a, b -= rot(a, 25);
  c ^= b, c -= rot(b, 16);
  a ^= c, a -= rot(c, 4);
  b ^= a, b -= rot(a, 14);
  c ^= b, c -= rot(b, 24);
  return c;
}

// The bytes one element of the datatype `type` (`length` bytes, as the attribute
// message says) takes in the file, once the part libhdf5 decodes is known to lie
// within `length`: the header, and the properties of the classes whose size is fixed.
uint64_t element_bytes(const uint8_t* type, uint64_t length, const FileLayout& file,
                       int depth = 0) {
  if (length < 8)
    wrong("its datatype of " + std::to_string(length) + " bytes has no room for its header");
  const unsigned type_class = type[0] & 0x0f;
  // Bytes of properties per class (fixed point, float, time, string, bitfield, opaque,
  // compound, reference, enumeration, variable length, array); -1: not fixed.
  constexpr int kProperties[] = {4, 12, 2, 0, 4, -1, -1, 0, -1, -1, -1};
  if (type_class >= std::size(kProperties))
    wrong("its datatype has an unknown class " + std::to_string(type_class));
  if (type_class == 9) {  // variable length: a heap reference in the file, over a base type
    if (depth == 8) wrong("its datatype nests too deep");
    (void)element_bytes(type + 8, length - 8, file, depth + 1);
    return 4 + file.address_bytes + 4;
  }
  if (kProperties[type_class] > static_cast<int64_t>(length - 8)) {
    wrong("its datatype's properties run past its " + std::to_string(length) + " bytes");
  }
  return little_endian(type + 4, 4);
}

// The number of elements of the dataspace `space` (`length` bytes), once its
// dimensions are known to lie within them; the largest integer when it has more.
uint64_t points(const uint8_t* space, uint64_t length, const FileLayout& file) {
  if (length < 4 || space[0] < 1 || space[0] > 2 || space[1] > 32) {
    wrong("its dataspace is not one eie knows (version, rank)");
  }
  const unsigned version = space[0], rank = space[1];
  const uint64_t header = version == 1 ? 8 : 4;
  const uint64_t sizes = rank * file.length_bytes * ((space[2] & 1) != 0 ? 2 : 1);
  if (header + sizes > length) {
    wrong("its dataspace's " + std::to_string(rank) + " dimensions run past its " +
          std::to_string(length) + " bytes");
  }
  if (version == 2 && space[3] == 2) return 0;  // the null dataspace
  uint64_t count = 1;
  bool empty = false;
  for (unsigned i = 0; i < rank; ++i) {
    const uint64_t extent =
        little_endian(space + header + i * file.length_bytes, file.length_bytes);
    empty = empty || extent == 0;
    count = extent != 0 && count > std::numeric_limits<uint64_t>::max() / extent
                ? std::numeric_limits<uint64_t>::max()
                : count * extent;
  }
  return empty ? 0 : count;
}

// Checks one attribute message of `size` bytes as libhdf5's decoder reads it: name,
// datatype, dataspace and data one after the other (each padded to 8 bytes in
// version 1), each within the message.
void check_attribute(const uint8_t* message, uint64_t size, const FileLayout& file) {
  if (size < 8 || message[0] < 1 || message[0] > 3) wrong("it is not one eie knows (version)");
  const unsigned version = message[0];
  if (version > 1 && (message[1] & 0x03) != 0) {
    wrong("its datatype or dataspace is shared (stored elsewhere), which eie does not read");
  }
  const auto padded = [&](uint64_t bytes) { return version == 1 ? aligned(bytes) : bytes; };
  const uint64_t name = little_endian(message + 2, 2), type = little_endian(message + 4, 2),
                 space = little_endian(message + 6, 2);
  uint64_t at = version == 3 ? 9 : 8;  // version 3 adds the name's character set
  const auto runs_past = [&](const std::string& part, uint64_t bytes) {
    if (at > size || padded(bytes) > size - at) {
      wrong("its " + part + " of " + std::to_string(bytes) + " bytes runs past the message of " +
            std::to_string(size));
    }
  };
  runs_past("name", name);
  if (name == 0 || std::memchr(message + at, 0, name) == nullptr) wrong("its name has no NUL");
  at += padded(name);
  runs_past("datatype", type);
  const uint64_t element = element_bytes(message + at, type, file);
  at += padded(type);
  runs_past("dataspace", space);
  const uint64_t count = points(message + at, space, file);
  at += padded(space);
  if (element != 0 && count > (size - at) / element) {
    wrong("its data of " + std::to_string(count) + " values of " + std::to_string(element) +
          " bytes runs past the message of " + std::to_string(size));
  }
}

// A chunk of an object header: its bytes, where its messages lie in them, and the
// size of a message's header there.
struct Chunk {
  uint64_t address;            // in the file
  std::vector<uint8_t> bytes;  // the whole chunk
  uint64_t begin, end;         // of the messages in `bytes`
  uint64_t message_header;     // bytes before each message's data
};

// Version 2 chunks end in a checksum of everything before it.
void verify_checksum(const Chunk& chunk) {
  const auto n = chunk.bytes.size();
  if (lookup3(chunk.bytes.data(), n - 4) != little_endian(chunk.bytes.data() + n - 4, 4)) {
    wrong("the object header chunk at " + std::to_string(chunk.address) +
          " does not match its checksum");
  }
}

// The first chunk of the header at `address`, and its version (1 or 2).
std::pair<Chunk, unsigned> first_chunk(const FileLayout& file, uint64_t address) {
  const std::string what = "the object header";
  const auto start = read_bytes(file, address, 6, what);
  if (start[0] == 1) {  // version, reserved, 2 message count, 4 reference count, 4 size, padding
    const auto prefix = read_bytes(file, address, 16, what);
    const uint64_t size = little_endian(prefix.data() + 8, 4);
    return {{address + 16, read_bytes(file, address + 16, size, what), 0, size, 8}, 1};
  }
  if (std::memcmp(start.data(), "OHDR", 4) != 0 || start[4] != 2) {
    wrong(what + " at " + std::to_string(address) + " is not one eie knows (signature, version)");
  }
  const unsigned flags = start[5];
  const uint64_t width = uint64_t{1} << (flags & 3);  // of the chunk's size
  const uint64_t prefix =
      6 + ((flags & 0x20) != 0 ? 16 : 0) + ((flags & 0x10) != 0 ? 4 : 0) + width;
  const uint64_t size =
      little_endian(read_bytes(file, address, prefix, what).data() + prefix - width, width);
  if (size > file.bytes) {  // would overflow below
    wrong(what + " at " + std::to_string(address) + " claims " + std::to_string(size) +
          " bytes, more than the file");
  }
  Chunk chunk{address, read_bytes(file, address, prefix + size + 4, what), prefix, prefix + size,
              4 + ((flags & 0x04) != 0 ? 2u : 0u)};  // creation order kept: 2 more bytes
  verify_checksum(chunk);
  return {std::move(chunk), 2};
}

// A continuation chunk of a header of `version`, `length` bytes at `address`.
Chunk continuation(const FileLayout& file, uint64_t address, uint64_t length, unsigned version,
                   uint64_t message_header) {
  const std::string what = "an object header continuation";
  if (version == 1) {
    return {address, read_bytes(file, address, length, what), 0, length, message_header};
  }
  if (length < 8) wrong(what + " at " + std::to_string(address) + " is too short");
  Chunk chunk{address, read_bytes(file, address, length, what), 4, length - 4, message_header};
  if (std::memcmp(chunk.bytes.data(), "OCHK", 4) != 0) {
    wrong(what + " at " + std::to_string(address) + " is not one (signature)");
  }
  verify_checksum(chunk);
  return chunk;
}

}  // namespace

void check_attribute_messages(const FileLayout& file, uint64_t address) {
  if (file.address_bytes > 8 || file.length_bytes > 8) {
    wrong("its addresses or lengths are wider than eie reads (8 bytes)");
  }
  auto [first, version] = first_chunk(file, address);
  std::vector<Chunk> pending;
  pending.push_back(std::move(first));
  std::set<uint64_t> seen{pending.back().address};
  while (!pending.empty()) {
    const auto chunk = std::move(pending.back());
    pending.pop_back();
    const uint8_t* bytes = chunk.bytes.data();
    for (uint64_t at = chunk.begin; at + chunk.message_header <= chunk.end;) {
      const unsigned type = version == 1 ? little_endian(bytes + at, 2) : bytes[at];
      const uint64_t size = little_endian(bytes + at + (version == 1 ? 2 : 1), 2);
      const uint8_t flags = bytes[at + (version == 1 ? 4 : 3)];
      const uint64_t data = at + chunk.message_header;
      const auto where = std::to_string(chunk.address + at);
      if (size > chunk.end - data) wrong("the header message at " + where + " runs past its chunk");
      if (type == kAttributeMessage) {
        try {
          if ((flags & kSharedMessage) != 0) wrong("it is shared, which eie does not read");
          check_attribute(bytes + data, size, file);
        } catch (const std::invalid_argument& e) {
          wrong("the attribute message at " + where + ": " + e.what());
        }
      } else if (type == kContinuationMessage) {
        if (size < file.address_bytes + file.length_bytes) {
          wrong("the continuation message at " + where + " is too short");
        }
        const uint64_t next = little_endian(bytes + data, file.address_bytes);
        const uint64_t length = little_endian(bytes + data + file.address_bytes, file.length_bytes);
        if (!seen.insert(next).second) {
          wrong("the continuation message at " + where + " leads back to a chunk read before");
        }
        pending.push_back(continuation(file, next, length, version, chunk.message_header));
      }
      at = data + size;
    }
  }
}

}  // namespace eie::h5
