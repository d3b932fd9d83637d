#pragma once

// The subcommands of `eie`, one per file (cmd_*.cpp): argv[0] is the command's name.
// Each throws std::exception subclasses with one-line messages; main() prints them.

#include <string>

namespace eie::cli {

int run_train(int argc, char** argv);
int run_solve(int argc, char** argv);
int run_gen(int argc, char** argv);
int run_import(int argc, char** argv);
int run_fit_scale(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_entropy(int argc, char** argv);
int run_plot(int argc, char** argv);

// `eie --version`: eie's version and commit (as configured), LibTorch's version, and
// whether a CUDA device is visible (common.cpp).
[[nodiscard]] std::string version_text();

}  // namespace eie::cli
