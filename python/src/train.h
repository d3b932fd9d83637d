#pragma once

// eie.train: eie train from Python, each flag a keyword argument, and a callback that
// watches (and may end) the run epoch by epoch.

#include "python/src/conversions.h"

namespace eie::python {

void bind_train(py::module_& m);

}  // namespace eie::python
