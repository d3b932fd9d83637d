#pragma once

// eie.read, eie.write and eie.check: instance files and datasets as tensors, and the
// problems' independent check of solutions.

#include "python/src/conversions.h"

namespace eie::python {

void bind_files(py::module_& m);

}  // namespace eie::python
