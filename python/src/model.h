#pragma once

// eie.load, Model.solve and eie.solve_file: what `eie solve` does, from Python.

#include "python/src/conversions.h"

namespace eie::python {

void bind_model(py::module_& m);

}  // namespace eie::python
