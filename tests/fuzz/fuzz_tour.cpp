// Fuzz target: tour reader (scripts/fuzz.sh builds and runs it).
#include "tsp/tsplib.h"
#include "fuzz_reader.h"

EIE_FUZZ_READER(eie::tsp::parse_tour(text, "fuzz.tour"))
