// Fuzz target: bench_toml reader (scripts/fuzz.sh builds and runs it).
#include "src/bench/bench_config.h"
#include "tests/fuzz/fuzz_reader.h"

EIE_FUZZ_READER(eie::parse_bench_config(text, "fuzz.toml"))
