#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eie {

// Strict number parsing: the whole token must be a number, or std::invalid_argument
// names `what` and the offending text.
[[nodiscard]] int64_t parse_int(std::string_view text, const std::string& what);
[[nodiscard]] double parse_double(std::string_view text, const std::string& what);

// A flag's value, range-checked by every front end with the same words: std::invalid_argument
// naming the flag (without "--") and the value ("--epochs must be >= 1, got 0").
[[nodiscard]] int64_t flag_at_least(int64_t value, const std::string& flag, int64_t min);
[[nodiscard]] double flag_positive(double value, const std::string& flag);

// Splits on blanks (spaces and tabs), dropping empty tokens.
[[nodiscard]] std::vector<std::string_view> split_blanks(std::string_view line);

// Shortest text that reads back as the same double: integers print as such
// ("60", not "60.000000"), and "nan", "-3.5".
[[nodiscard]] std::string shortest_text(double value);

// The whole file as text; std::invalid_argument naming the path if it cannot be opened.
[[nodiscard]] std::string read_text(const std::filesystem::path& path);

// At most `limit` characters of `text` for an error message, marked when cut, with
// control characters shown as '?': a garbage line is quoted, not echoed whole.
[[nodiscard]] std::string excerpt(std::string_view text, size_t limit = 40);

// Throws std::invalid_argument naming `what` unless `count` items of at least
// `min_bytes` each fit in a text of `text_bytes`: a header's count is checked against
// the data before anything is sized by it.
void check_count_fits(int64_t count, size_t text_bytes, int64_t min_bytes, const std::string& what);

// The names whose flag is on, comma-separated in the order given ("encoder,pointer").
[[nodiscard]] std::string names_of_enabled(
    std::initializer_list<std::pair<bool, const char*>> flags);

// Removes leading and trailing blanks, '\r' included.
[[nodiscard]] std::string_view trim(std::string_view text);

}  // namespace eie
