// Fuzz target: bench_toml reader (scripts/fuzz.sh builds and runs it).
#include "bench/bench_config.h"
#include "fuzz_reader.h"

EIE_FUZZ_READER(eie::parse_bench_config(text, "fuzz.toml"))
