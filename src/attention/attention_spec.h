#pragma once

// How attention is set at inference, in one syntax for the CLI's flags and the
// bench files' `scales`: "NAME[:FILE][@K[/PARTS]]", a scale policy (or calibrated,
// or "" for as trained), then optionally a window of the K nearest nodes and where
// it applies (PARTS as --window-at: all, or a comma list of encoder, glimpse,
// pointer, view, tiles).

#include <cstdint>
#include <string>

#include "src/attention/scale_policy.h"
#include "src/attention/setting.h"

namespace eie {

struct AttentionSpec {
  std::string scale;                  // NAME[:FILE], calibrated[:FILE], or "" (as trained)
  ScaleScope scope = ScaleScope::all;  // where the scale applies
  int64_t window = 0;                 // 0: every node
  std::string parts = "all";          // where the window applies, as written
};

// Throws std::invalid_argument naming the text for a malformed window.
[[nodiscard]] AttentionSpec parse_attention_spec(const std::string& text,
                                                 ScaleScope scope = ScaleScope::all);

// A table row's name for it: "logn-base", "sqrt window 100 (pointer)".
[[nodiscard]] std::string attention_label(const AttentionSpec& spec);

}  // namespace eie
