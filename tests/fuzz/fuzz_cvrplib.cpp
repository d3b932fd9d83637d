// Fuzz target: cvrplib reader (scripts/fuzz.sh builds and runs it).
#include "cvrp/cvrplib.h"
#include "fuzz_reader.h"

EIE_FUZZ_READER(eie::cvrp::parse_cvrplib(text, "fuzz.vrp"))
