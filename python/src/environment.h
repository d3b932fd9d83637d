#pragma once

// eie.Env: a problem's batched environment, stepped by a policy written in Python.

#include "python/src/conversions.h"

namespace eie::python {

void bind_environment(py::module_& m);

}  // namespace eie::python
