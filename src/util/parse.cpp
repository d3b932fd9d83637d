#include "src/util/parse.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace eie {

namespace {
template <class T>
T parse_number(std::string_view text, const std::string& what, const char* kind) {
  text = trim(text);
  T value{};
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw std::invalid_argument(what + ": expected " + kind + ", got '" + excerpt(text) + "'");
  }
  return value;
}
}  // namespace

int64_t parse_int(std::string_view text, const std::string& what) {
  return parse_number<int64_t>(text, what, "an integer");
}

double parse_double(std::string_view text, const std::string& what) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // from_chars rejects '+'
  return parse_number<double>(text, what, "a number");
}

std::string excerpt(std::string_view text, size_t limit) {
  std::string out(text.substr(0, limit));
  for (auto& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text.size() > limit ? out + "..." : out;
}

void check_count_fits(int64_t count, size_t text_bytes, int64_t min_bytes,
                      const std::string& what) {
  if (count > static_cast<int64_t>(text_bytes / static_cast<size_t>(min_bytes))) {
    throw std::invalid_argument(what + " " + std::to_string(count) + " cannot fit in a file of " +
                                std::to_string(text_bytes) + " bytes");
  }
}

std::string_view trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split_blanks(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) tokens.push_back(line.substr(i, j - i));
    i = j;
  }
  return tokens;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int64_t flag_at_least(int64_t value, const std::string& flag, int64_t min) {
  if (value < min) {
    throw std::invalid_argument("--" + flag + " must be >= " + std::to_string(min) + ", got " +
                                std::to_string(value));
  }
  return value;
}

double flag_positive(double value, const std::string& flag) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw std::invalid_argument("--" + flag + " must be a positive number, got " +
                                std::to_string(value));
  }
  return value;
}

std::string shortest_text(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string names_of_enabled(std::initializer_list<std::pair<bool, const char*>> flags) {
  std::string list;
  for (const auto& [on, name] : flags) {
    if (on) list += (list.empty() ? "" : ",") + std::string(name);
  }
  return list;
}

}  // namespace eie
