#pragma once

// libFuzzer entry shared by the reader targets: the reader gets the input as the
// whole text of a file; its documented errors (std::invalid_argument and
// std::runtime_error, one line each) are expected, anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#define EIE_FUZZ_READER(read_text_expression)                                         \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {           \
    const std::string text(reinterpret_cast<const char*>(data), size);                \
    try {                                                                              \
      (void)(read_text_expression);                                                    \
    } catch (const std::invalid_argument& e) {                                         \
      if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();   \
    } catch (const std::runtime_error& e) {                                            \
      if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();   \
    }                                                                                  \
    return 0;                                                                          \
  }
