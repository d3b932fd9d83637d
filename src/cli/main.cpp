// eie: one binary, one subcommand per file (cmd_*.cpp).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "src/cli/commands.h"
#include "src/util/heap.h"

namespace {

struct Command {
  const char* name;                   // as typed after `eie`
  int (*run)(int argc, char** argv);  // argv[0] is the command name
  const char* summary;                // one line for `eie --help`
};

const Command kCommands[] = {
    {"train", eie::cli::run_train, "train a policy with REINFORCE and a greedy rollout baseline"},
    {"solve", eie::cli::run_solve, "solve an instance file or a dataset"},
    {"gen", eie::cli::run_gen, "generate a dataset of random instances"},
    {"import", eie::cli::run_import, "turn Kool et al. reference weights into an eie model"},
    {"bench", eie::cli::run_bench, "length-extrapolation tables from a TOML benchmark file"},
    {"entropy", eie::cli::run_entropy, "measured attention entropy per layer at several sizes"},
    {"plot", eie::cli::run_plot, "draw a solution file on its instance file (PNG)"},
    {"fit-scale", eie::cli::run_fit_scale,
     "fit lambda(n): the EIE network and exact entropy roots"},
};

void usage(FILE* out) {
  std::fprintf(out, "usage: eie <command> [options]   (eie <command> --help for its options)\n\n");
  for (const auto& c : kCommands) std::fprintf(out, "  %-9s %s\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  eie::keep_freed_memory();
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const auto& c : kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    try {
      return c.run(argc - 1, argv + 1);
    } catch (const std::exception& e) {
      std::string message = e.what();
      // LibTorch appends a C++ backtrace to its messages: keep the first line.
      message = message.substr(0, message.find('\n'));
      // A bad token can be long: quote at most a line's worth of it.
      if (message.size() > 300) message = message.substr(0, 300) + " [...]";
      std::fprintf(stderr, "eie %s: error: %s\n", c.name, message.c_str());
      return 1;
    } catch (...) {  // nothing may escape main: no abort, whatever a library throws
      std::fprintf(stderr, "eie %s: error: unexpected failure (not a std::exception)\n", c.name);
      return 1;
    }
  }
  std::fprintf(stderr, "eie: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
