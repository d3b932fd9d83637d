// Fuzz target: tour reader (scripts/fuzz.sh builds and runs it).
#include "problems/tsp/tsplib.h"
#include "tests/fuzz/fuzz_reader.h"

EIE_FUZZ_READER(eie::tsp::parse_tour(text, "fuzz.tour"))
