#pragma once

// libhdf5 1.10 decodes every attribute message in an object's header whenever one of
// its attributes is looked up, and trusts the sizes inside each message: a name
// without its NUL, or a datatype, dataspace or data longer than the message, makes
// it read past its buffers (the fuzzers' crashes under H5O__attr_exists). eie reads
// the header first, as the file format describes it, and checks every attribute
// message against its own size.

#include <cstdint>

#include "src/io/h5_layout.h"

namespace eie::h5 {

// Checks the attribute messages in the object header at `address`: version 1 with its
// continuation chunks, or version 2, whose chunks' checksums are verified. Throws
// std::invalid_argument saying what is wrong where, e.g. "the attribute message at
// 312: its name of 4000 bytes runs past the message". Attributes in dense storage (a
// fractal heap, which neither eie nor h5py writes by default) are not reached.
void check_attribute_messages(const FileLayout& file, uint64_t address);

}  // namespace eie::h5
