#pragma once

// The error contract every fuzz target checks: a reader's documented errors
// (std::invalid_argument and std::runtime_error) are expected and must be one
// line; anything else (another exception, a crash, a sanitizer report, a hang)
// is a finding.

#include <stdexcept>
#include <string>

namespace eie::fuzz {

inline void require_one_line(const std::exception& e) {
  if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
}

template <class Body>
void expect_one_line_errors(Body body) {
  try {
    body();
  } catch (const std::invalid_argument& e) {
    require_one_line(e);
  } catch (const std::runtime_error& e) {
    require_one_line(e);
  }
}

}  // namespace eie::fuzz
