#pragma once

#include <string>

namespace eie {

// `text` as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
// comma, a quote or a line break; as it is otherwise.
[[nodiscard]] inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace eie
