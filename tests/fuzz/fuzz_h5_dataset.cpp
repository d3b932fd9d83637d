// Fuzz target: an HDF5 dataset file as `eie solve --dataset` reads it (the file,
// the problem its attributes name, the validation of its instances). Built by
// scripts/configure_sanitize.sh (EIE_FUZZ), run by scripts/fuzz.sh.
#include "io/dataset.h"
#include "memory_file.h"
#include "one_line_errors.h"
#include "problem_registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = eie::fuzz::memory_file(data, size);
  eie::fuzz::expect_one_line_errors([&] {
    const auto dataset = eie::read_dataset(path);
    eie::problem_of(dataset)->validate(dataset.instances);
  });
  return 0;
}
