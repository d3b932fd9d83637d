#pragma once

// A picture of a solution, as gnuplot draws it (src/util/gnuplot.h): a script and
// the inline datablocks it reads, and the size it is drawn at unless the user asks
// for another. Problems make them; the CLI draws them.

#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace eie {

struct Picture {
  std::string script;                       // gnuplot commands (no terminal, no output)
  std::map<std::string, std::string> data;  // datablock name -> rows it reads as $name
  int width = 900;                          // pixels, by default
  int height = 900;
};

// ", gap 1.23%" of `value` above a known optimum; "" without one.
[[nodiscard]] inline std::string gap_text(double value, std::optional<double> optimum) {
  if (!optimum || *optimum == 0) return "";
  char text[48];
  std::snprintf(text, sizeof text, ", gap %.2f%%", 100 * (value - *optimum) / *optimum);
  return text;
}

}  // namespace eie
