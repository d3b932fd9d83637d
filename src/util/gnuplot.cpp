#include "util/gnuplot.h"

#include <cstdio>
#include <stdexcept>

namespace eie {

void gnuplot_png(const std::filesystem::path& output, const std::string& script, int width,
                 int height) {
  FILE* pipe = ::popen("gnuplot 2>&1", "w");
  if (pipe == nullptr) throw std::runtime_error("cannot start gnuplot (install gnuplot-nox)");
  std::fprintf(pipe, "set terminal pngcairo size %d,%d noenhanced\nset output '%s'\n%s\n", width,
               height, output.c_str(), script.c_str());
  const int status = ::pclose(pipe);
  if (status != 0) throw std::runtime_error("gnuplot failed writing " + output.string());
}

}  // namespace eie
