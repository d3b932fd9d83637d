#include "src/util/gnuplot.h"

#include <signal.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "src/util/atomic_path.h"
#include "src/util/temporary_directory.h"

namespace eie {

namespace {

// SIGPIPE ignored while it lives (the previous disposition restored after).
class IgnoredSigpipe {
 public:
  IgnoredSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~IgnoredSigpipe() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoredSigpipe(const IgnoredSigpipe&) = delete;
  IgnoredSigpipe& operator=(const IgnoredSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};

// The private directory's path goes into gnuplot's script: only characters that
// cannot end a literal.
void check_plain(const std::filesystem::path& path) {
  for (const char c : path.string()) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' || c == '.';
    if (!plain) {
      throw std::runtime_error(
          "cannot plot: the temporary directory's path (TMPDIR) has "
          "characters other than letters, digits and / - _ .");
    }
  }
}

}  // namespace

std::string gnuplot_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) continue;
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

void gnuplot_png(const std::filesystem::path& output, const std::string& script,
                 const std::map<std::string, std::string>& data, int width, int height) {
  const TemporaryDirectory directory("eie-gnuplot");
  check_plain(directory.path());
  const auto picture = directory.path() / "plot.png";
  const auto errors = directory.path() / "errors";  // gnuplot's messages: never on our stdout
  // A missing gnuplot closes the pipe at once: writing to it must fail, not kill us.
  const IgnoredSigpipe ignored;
  FILE* pipe = ::popen(("gnuplot 2>'" + errors.string() + "'").c_str(), "w");
  if (pipe == nullptr) throw std::runtime_error("cannot start gnuplot (install gnuplot-nox)");
  for (const auto& [name, text] : data) {
    std::fprintf(pipe, "$%s << EOD\n%s\nEOD\n", name.c_str(), text.c_str());
  }
  std::fprintf(pipe, "set terminal pngcairo size %d,%d noenhanced\nset output '%s'\n%s\n", width,
               height, picture.c_str(), script.c_str());
  const int status = ::pclose(pipe);
  if (status != 0 || !std::filesystem::exists(picture)) {
    std::ifstream messages(errors);
    std::string first;
    while (first.empty() && std::getline(messages, first)) {
    }
    throw std::runtime_error("gnuplot failed writing " + output.string() +
                             (status == 127 << 8 ? " (is gnuplot installed? gnuplot-nox)"
                                                 : first.empty() ? "" : ": " + first));
  }
  AtomicPath target(output);
  std::filesystem::copy_file(picture, target.temporary(),
                             std::filesystem::copy_options::overwrite_existing);
  target.commit();
}

}  // namespace eie
