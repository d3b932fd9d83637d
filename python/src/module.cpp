// The compiled part of the Python package `eie` (python/eie/__init__.py imports torch
// first, so that PyTorch's tensor type exists before tensors cross).
#include "python/src/bench.h"
#include "python/src/environment.h"
#include "python/src/files.h"
#include "python/src/model.h"
#include "python/src/train.h"
#include "src/util/blas_kernels.h"

PYBIND11_MODULE(_eie, m) {
  namespace py = pybind11;
  m.doc() = "eie: attention policies for TSP, CVRP and 3D packing, on torch tensors";
  eie::use_native_blas_kernels();  // before this module's first matrix product
  // std::invalid_argument is ValueError already (pybind11); a missing file is Python's own.
  py::register_exception<eie::python::MissingFile>(m, "MissingFile", PyExc_FileNotFoundError);
  eie::python::bind_model(m);
  eie::python::bind_environment(m);
  eie::python::bind_files(m);
  eie::python::bind_bench(m);
  eie::python::bind_train(m);
}
