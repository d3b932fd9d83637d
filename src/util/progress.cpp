#include "src/util/progress.h"

#include <unistd.h>

#include <cstdio>

namespace eie {

Progress::Progress(std::string label, int64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (enabled_) std::fprintf(stderr, "\n");
}

void Progress::advance(int64_t count, const std::string& status) {
  done_ += count;
  const auto now = std::chrono::steady_clock::now();
  if (enabled_ && (done_ >= total_ || now - last_draw_ > std::chrono::milliseconds(200))) {
    last_draw_ = now;
    draw(status);
  }
}

void Progress::draw(const std::string& status) {
  const double elapsed = std::chrono::duration<double>(last_draw_ - start_).count();
  const double fraction = total_ > 0 ? static_cast<double>(done_) / total_ : 1.0;
  const double eta = done_ > 0 ? elapsed * (total_ - done_) / done_ : 0.0;
  constexpr int width = 30;
  const int filled = static_cast<int>(fraction * width);
  std::string bar(filled, '#');
  bar.resize(width, '.');
  std::fprintf(stderr, "\r%s [%s] %lld/%lld  %.0fs elapsed, ETA %.0fs  %s\033[K", label_.c_str(),
               bar.c_str(), static_cast<long long>(done_), static_cast<long long>(total_), elapsed,
               eta, status.c_str());
  std::fflush(stderr);
}

}  // namespace eie
