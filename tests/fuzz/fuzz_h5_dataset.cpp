// Fuzz target: an HDF5 dataset file as `eie solve --dataset` reads it (the file,
// the problem its attributes name, the validation of its instances). Built by
// scripts/configure_sanitize.sh (EIE_FUZZ), run by scripts/fuzz.sh.
#include "src/io/dataset.h"
#include "src/problem/registry.h"
#include "tests/fuzz/memory_file.h"
#include "tests/fuzz/one_line_errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = eie::fuzz::memory_file(data, size);
  eie::fuzz::expect_one_line_errors([&] {
    const auto dataset = eie::read_dataset(path);
    eie::problem_of(dataset)->validate(dataset.instances);
  });
  return 0;
}
