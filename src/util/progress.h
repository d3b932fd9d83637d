#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace eie {

// A one-line progress bar with rate and ETA on stderr, drawn only when stderr is a
// terminal (logs and CI stay clean).
class Progress {
 public:
  Progress(std::string label, int64_t total);
  ~Progress();
  void advance(int64_t count = 1, const std::string& status = "");

 private:
  void draw(const std::string& status);

  std::string label_;                                // what is being counted, printed first
  int64_t total_;                                    // count at completion
  int64_t done_ = 0;                                 // count so far
  bool enabled_;                                     // stderr is a terminal
  std::chrono::steady_clock::time_point start_;      // for the rate and ETA
  std::chrono::steady_clock::time_point last_draw_;  // redraws are throttled
};

}  // namespace eie
