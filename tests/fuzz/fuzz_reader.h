#pragma once

// libFuzzer entry shared by the reader targets: the reader gets the input as the
// whole text of a file, under the error contract of one_line_errors.h.

#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/one_line_errors.h"

#define EIE_FUZZ_READER(read_text_expression)                                 \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {   \
    const std::string text(reinterpret_cast<const char*>(data), size);        \
    eie::fuzz::expect_one_line_errors([&] { (void)(read_text_expression); }); \
    return 0;                                                                 \
  }
