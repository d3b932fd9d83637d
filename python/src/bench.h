#pragma once

// eie.bench: a benchmark file's table as Python values (eie bench CONFIG.toml).

#include "python/src/conversions.h"

namespace eie::python {

void bind_bench(py::module_& m);

}  // namespace eie::python
