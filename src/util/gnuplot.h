#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace eie {

// `text` as a gnuplot single-quoted string literal: quotes doubled, control characters
// left out, so no text (a file name in a title, say) can end the literal or the command.
[[nodiscard]] std::string gnuplot_quote(const std::string& text);

// Runs gnuplot on `script` with a PNG terminal of width x height. `data` are
// inline datablocks the script reads as $NAME (name -> CSV text): no file name ever
// enters the script. gnuplot writes into a private temporary directory whose name
// eie chose; the picture is then moved to `output` atomically, under its literal
// name. Throws std::runtime_error when gnuplot is missing or fails (no file left).
void gnuplot_png(const std::filesystem::path& output, const std::string& script,
                 const std::map<std::string, std::string>& data = {}, int width = 1000,
                 int height = 420);

}  // namespace eie
