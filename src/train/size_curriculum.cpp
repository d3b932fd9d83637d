#include "src/train/size_curriculum.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "src/util/parse.h"
#include "src/util/seed_mix.h"

namespace eie {

SizeRange parse_size_range(const std::string& text) {
  const auto dash = text.find('-');
  const auto fail = [&] {
    return std::invalid_argument("--sizes '" + excerpt(text) +
                                 "': expected MIN-MAX with 3 <= MIN <= MAX (e.g. 50-200)");
  };
  if (dash == std::string::npos) throw fail();
  SizeRange range;
  try {
    range.min = parse_int(text.substr(0, dash), "--sizes");
    range.max = parse_int(text.substr(dash + 1), "--sizes");
  } catch (const std::invalid_argument&) {
    throw fail();
  }
  if (range.min < 3 || range.max < range.min) throw fail();
  return range;
}

int64_t step_size(const SizeRange& range, uint64_t seed, int64_t epoch, int64_t step) {
  const uint64_t z = splitmix64(seed + 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(epoch + 1) +
                                0xD1B54A32D192ED03ULL * static_cast<uint64_t>(step + 1));
  const auto span = static_cast<uint64_t>(range.max - range.min + 1);
  return range.min + static_cast<int64_t>(z % span);
}

int64_t step_batch(int64_t batch, int64_t train_n, int64_t n, int64_t world_size) {
  const double ratio = static_cast<double>(train_n) / static_cast<double>(n);
  const auto shares =
      std::llround(static_cast<double>(batch) * ratio * ratio / static_cast<double>(world_size));
  return std::max<int64_t>(1, shares) * world_size;
}

}  // namespace eie
