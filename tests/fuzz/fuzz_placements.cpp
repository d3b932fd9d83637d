// Fuzz target: placements reader (scripts/fuzz.sh builds and runs it).
#include "problems/bpp3d/bpp_file.h"
#include "tests/fuzz/fuzz_reader.h"

EIE_FUZZ_READER(eie::bpp3d::parse_placements(text, "fuzz.placements"))
