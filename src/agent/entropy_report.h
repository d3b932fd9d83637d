#pragma once

// What `eie entropy` writes: the measured attention entropy per layer (and head) at
// several sizes, as CSV rows and a plot of the per-layer means.

#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "src/nn/entropy_probe.h"

namespace eie {

class EntropyReport {
 public:
  // `per_head`: a row per head instead of the mean over heads.
  explicit EntropyReport(bool per_head);

  // The rows of every probe of `probes` at size n. Layers with a `tag` (e.g.
  // " (no bias)") are the reference that the plot draws dashed beside the untagged ones.
  void add(int64_t n, const nn::EntropyProbes& probes, const std::string& tag = "");

  // n,layer,head,mean,std with a header line.
  [[nodiscard]] std::string csv() const { return csv_.str(); }

  // A PNG of the per-layer means against n (gnuplot): a colour per layer, the
  // reference dashed in its layer's colour, ln n beside.
  void plot(const std::filesystem::path& png, const std::string& title) const;

 private:
  void add_rows(int64_t n, const std::string& layer, const nn::EntropyProbe& probe);

  bool per_head_;                              // a row per head
  std::ostringstream csv_;                     // the rows so far
  std::map<std::string, std::string> series_;  // per layer, "n mean" lines of the mean over heads
  std::vector<std::string> layers_;            // the untagged layers, in plotting order
  std::vector<std::string> reference_;         // the tagged ones, in the same order
};

}  // namespace eie
