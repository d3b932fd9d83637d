#pragma once

// Variable-length strings live in HDF5's global heap, and libhdf5 1.10 trusts what it
// finds there: a forged length (or element size) makes it allocate and fill that many
// bytes, a forged object size makes it copy past its buffers, a forged collection
// makes it walk outside the heap. eie reads such a string without libhdf5 following
// it: the descriptor raw, then the heap collection from the file, checked.

#include <hdf5.h>

#include <cstdint>
#include <string>

#include "src/io/h5_layout.h"

namespace eie::h5 {

// The variable-length string held by `attribute` (one value). Throws
// std::invalid_argument (the message continues "attribute 'x' ...") when it is null,
// longer than `max_bytes`, or stored in a global heap object that is not exactly as
// long as it claims, inside a collection that is not well formed and within the file.
[[nodiscard]] std::string read_variable_string(hid_t attribute, const FileLayout& file,
                                               uint64_t max_bytes);

}  // namespace eie::h5
