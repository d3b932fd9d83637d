#pragma once

#include <filesystem>
#include <string>

namespace eie {

// Runs gnuplot on `script` with the terminal and output set to a PNG at
// `output` (a path the caller commits); throws std::runtime_error when gnuplot
// is missing or fails.
void gnuplot_png(const std::filesystem::path& output, const std::string& script, int width = 1000,
                 int height = 420);

}  // namespace eie
