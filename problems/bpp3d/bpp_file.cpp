#include "problems/bpp3d/bpp_file.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "src/util/atomic_path.h"
#include "src/util/parse.h"

namespace eie::bpp3d {

namespace {

// The content lines of a text (comments and blank lines skipped), with their numbers.
class Lines {
 public:
  Lines(const std::string& text, std::string origin) : lines_(text), origin_(std::move(origin)) {}

  // The next content line split into tokens; false at the end of the text.
  bool next(std::vector<std::string_view>& tokens) {
    while (std::getline(lines_, raw_)) {
      ++number_;
      const auto line = trim(raw_);
      if (line.empty() || line.front() == '#') continue;
      tokens = split_blanks(line);
      return true;
    }
    return false;
  }

  // "FILE:LINE" of the last line read.
  [[nodiscard]] std::string where() const { return origin_ + ":" + std::to_string(number_); }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(where() + ": " + what);
  }

  // Expects exactly `count` tokens, described by `format` in the error.
  void expect(const std::vector<std::string_view>& tokens, size_t count, const char* format) const {
    if (tokens.size() != count) {
      fail("expected '" + std::string(format) + "', found " + std::to_string(tokens.size()) +
           " tokens");
    }
  }

  // A token as an int in [low, high].
  [[nodiscard]] int integer(std::string_view token, const std::string& what, int64_t low,
                            int64_t high) const {
    const int64_t value = parse_int(token, where() + ": " + what);
    if (value < low || value > high) {
      fail(what + " = " + std::to_string(value) + " must be in " + std::to_string(low) + ".." +
           std::to_string(high));
    }
    return static_cast<int>(value);
  }

 private:
  std::istringstream lines_;  // the remaining text
  std::string origin_;        // file name used in errors
  std::string raw_;           // the current line
  int number_ = 0;            // 1-based number of the current line
};

constexpr int64_t kMaxCount = 10'000'000;  // sanity limit on n and on coordinates

}  // namespace

BppData parse_bpp(const std::string& text, const std::string& origin) {
  Lines lines(text, origin);
  std::vector<std::string_view> tokens;
  if (!lines.next(tokens)) lines.fail("empty file: expected 'L W n'");
  lines.expect(tokens, 3, "L W n");
  BppData data;
  data.length = lines.integer(tokens[0], "L", 1, kMaxSide);
  data.width = lines.integer(tokens[1], "W", 1, kMaxSide);
  const int64_t n = parse_int(tokens[2], lines.where() + ": n");
  if (n < 1) lines.fail("n = " + std::to_string(n) + ": an instance needs at least one box");
  if (n > kMaxCount) lines.fail("n = " + std::to_string(n) + " is too large");
  // Reserved as far as the text can hold boxes ("l w h\n"): a forged n costs nothing.
  data.boxes.reserve(static_cast<size_t>(std::min<int64_t>(n, text.size() / 6)));
  while (lines.next(tokens)) {
    const size_t index = data.boxes.size();
    if (int64_t(index) == n) lines.fail("more than n = " + std::to_string(n) + " box lines");
    lines.expect(tokens, 3, "l w h");
    const std::string name = "box " + std::to_string(index);
    Box box;
    box.l = lines.integer(tokens[0], name + " l", 1, kMaxSide);
    box.w = lines.integer(tokens[1], name + " w", 1, kMaxSide);
    box.h = lines.integer(tokens[2], name + " h", 1, kMaxSide);
    try {
      check_box(box, index, data.length, data.width);
    } catch (const std::invalid_argument& e) {
      lines.fail(e.what());
    }
    data.boxes.push_back(box);
  }
  if (int64_t(data.boxes.size()) != n) {
    lines.fail("truncated: expected " + std::to_string(n) + " boxes, found " +
               std::to_string(data.boxes.size()));
  }
  try {
    data.validate();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
  return data;
}

BppData read_bpp(const std::filesystem::path& path) {
  return parse_bpp(read_text(path), path.string());
}

void write_bpp(const std::filesystem::path& path, const BppData& data) {
  data.validate();
  std::ostringstream file;
  file << data.length << ' ' << data.width << ' ' << data.boxes.size() << '\n';
  for (const auto& box : data.boxes) file << box.l << ' ' << box.w << ' ' << box.h << '\n';
  write_file(path, file.str());
}

void write_placements(const std::filesystem::path& path, const BppData& data,
                      const std::vector<Placement>& placements) {
  const int64_t height = check_packing(data, placements);
  std::ostringstream file;
  file << data.length << ' ' << data.width << ' ' << height << '\n';
  for (const auto& p : placements) {
    file << p.box << ' ' << p.x << ' ' << p.y << ' ' << p.z << ' ' << p.dx << ' ' << p.dy << ' '
         << p.dz << '\n';
  }
  write_file(path, file.str());
}

PackedBin parse_placements(const std::string& text, const std::string& origin) {
  Lines lines(text, origin);
  std::vector<std::string_view> tokens;
  if (!lines.next(tokens)) lines.fail("empty file: expected 'L W H'");
  lines.expect(tokens, 3, "L W H");
  PackedBin bin;
  bin.length = lines.integer(tokens[0], "L", 1, kMaxSide);
  bin.width = lines.integer(tokens[1], "W", 1, kMaxSide);
  bin.height = lines.integer(tokens[2], "H", 1, std::numeric_limits<int32_t>::max());
  const auto header = lines.where();
  int64_t top = 0;
  while (lines.next(tokens)) {
    lines.expect(tokens, 7, "id x y z l w h");
    Placement p;
    p.box = lines.integer(tokens[0], "id", 0, kMaxCount);
    const std::string name = "box " + std::to_string(p.box);
    p.x = lines.integer(tokens[1], name + " x", 0, kMaxSide);
    p.y = lines.integer(tokens[2], name + " y", 0, kMaxSide);
    p.z = lines.integer(tokens[3], name + " z", 0, std::numeric_limits<int32_t>::max());
    p.dx = lines.integer(tokens[4], name + " l", 1, kMaxSide);
    p.dy = lines.integer(tokens[5], name + " w", 1, kMaxSide);
    p.dz = lines.integer(tokens[6], name + " h", 1, kMaxSide);
    top = std::max(top, int64_t{p.z} + p.dz);
    bin.placements.push_back(p);
  }
  if (bin.placements.empty()) lines.fail("no placement lines after 'L W H'");
  if (top != bin.height) {
    throw std::invalid_argument(header + ": H = " + std::to_string(bin.height) +
                                " but the boxes reach " + std::to_string(top));
  }
  return bin;
}

PackedBin read_placements(const std::filesystem::path& path) {
  return parse_placements(read_text(path), path.string());
}

}  // namespace eie::bpp3d
