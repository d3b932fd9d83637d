// Fuzz target: an HDF5 model file as `eie solve --model` loads it, for whichever
// problem it names, then one greedy decode of a small instance (where non-finite
// weights or inconsistent shapes would show). Built by
// scripts/configure_sanitize.sh (EIE_FUZZ), run by scripts/fuzz.sh.
#include <ATen/CPUGeneratorImpl.h>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/problem/registry.h"
#include "tests/fuzz/memory_file.h"
#include "tests/fuzz/one_line_errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = eie::fuzz::memory_file(data, size);
  for (const char* name : {"tsp", "cvrp", "bpp3d"}) {
    eie::fuzz::expect_one_line_errors([&] {
      const auto problem = eie::make_problem(name);
      auto agent = eie::load_agent(path, problem);
      auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
      torch::NoGradGuard no_grad;
      (void)agent->rollout(problem->generate(2, 6, gen), eie::Selection::greedy, std::nullopt);
    });
  }
  return 0;
}
