// Fuzz target: cvrplib reader (scripts/fuzz.sh builds and runs it).
#include "problems/cvrp/cvrplib.h"
#include "tests/fuzz/fuzz_reader.h"

EIE_FUZZ_READER(eie::cvrp::parse_cvrplib(text, "fuzz.vrp"))
