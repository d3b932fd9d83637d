// Fuzz target: tsplib reader (scripts/fuzz.sh builds and runs it).
#include "problems/tsp/tsplib.h"
#include "tests/fuzz/fuzz_reader.h"

EIE_FUZZ_READER(eie::tsp::parse_tsplib(text, "fuzz.tsp"))
