#include "src/util/blas_kernels.h"

#include <dlfcn.h>
#include <strings.h>

#include <cstdlib>

namespace eie {

namespace {

// The entry points of the OpenBLAS this process has loaded (none where it has not):
// found by name, so that eie links against any BLAS. The dynamic-architecture builds
// (Debian's) export the kernel choice: quit forgets it, init makes it again, reading
// OPENBLAS_CORETYPE.
struct OpenBlas {
  char* (*corename)() = nullptr;
  void (*quit)() = nullptr;
  void (*init)() = nullptr;
};

OpenBlas loaded_openblas() {
  OpenBlas blas;
  void* library = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_NOLOAD);  // never loads it
  if (library == nullptr) return blas;
  blas.corename = reinterpret_cast<char* (*)()>(dlsym(library, "openblas_get_corename"));
  blas.quit = reinterpret_cast<void (*)()>(dlsym(library, "gotoblas_dynamic_quit"));
  blas.init = reinterpret_cast<void (*)()>(dlsym(library, "gotoblas_dynamic_init"));
  dlclose(library);  // the handle only: the process still depends on the library
  return blas;
}

// The newest of OpenBLAS's x86-64 kernel sets this CPU (and its operating system:
// libgcc checks that the vector registers are saved) can run; nullptr if none beyond SSE3.
const char* native_core() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl")) {
    return "SkylakeX";
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
  return nullptr;
}

std::string& chosen_from() {
  static std::string fallback;  // the kernels OpenBLAS chose, when replaced here
  return fallback;
}

}  // namespace

void use_native_blas_kernels() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;  // the user's choice
  const auto blas = loaded_openblas();
  if (!blas.corename || !blas.quit || !blas.init) return;
  const char* native = native_core();
  const std::string chosen = blas.corename();
  if (native == nullptr || strcasecmp(chosen.c_str(), "Prescott") != 0) return;
  ::setenv("OPENBLAS_CORETYPE", native, 1);
  blas.quit();
  blas.init();
  chosen_from() = chosen;
}

std::string blas_kernels() {
  const auto blas = loaded_openblas();
  if (!blas.corename) return "";
  std::string text = std::string("OpenBLAS, ") + blas.corename() + " kernels";
  if (!chosen_from().empty()) text += " (it took this CPU for " + chosen_from() + ")";
  return text;
}

}  // namespace eie
