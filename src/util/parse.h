#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace eie {

// Strict number parsing: the whole token must be a number, or std::invalid_argument
// names `what` and the offending text.
[[nodiscard]] int64_t parse_int(std::string_view text, const std::string& what);
[[nodiscard]] double parse_double(std::string_view text, const std::string& what);

// Splits on blanks (spaces and tabs), dropping empty tokens.
[[nodiscard]] std::vector<std::string_view> split_blanks(std::string_view line);

// Shortest text that reads back as the same double: integers print as such
// ("60", not "60.000000"), and "nan", "-3.5".
[[nodiscard]] std::string shortest_text(double value);

// The whole file as text; std::invalid_argument naming the path if it cannot be opened.
[[nodiscard]] std::string read_text(const std::filesystem::path& path);

// Removes leading and trailing blanks, '\r' included.
[[nodiscard]] std::string_view trim(std::string_view text);

}  // namespace eie
