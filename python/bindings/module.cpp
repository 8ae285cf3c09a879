// benchreport._core: the compiled core. One register_<area>.cpp per header area.
#include <exception>
#include <pybind11/pybind11.h>

#include "benchreport/core/error.hpp"
#include "register.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  // Claim this thread's C++ exception state now (see start_worker in
  // core/parallel.hpp): a bad_alloc thrown later must not need an allocation.
  [[maybe_unused]] volatile int claimed = std::uncaught_exceptions();  // volatile: the call is pure
  m.doc() = "benchreport compiled core (statistics, comparison, readers, reports)";
  m.attr("__version__") = benchreport::version();
  py::register_exception<benchreport::InputError>(m, "InputError", PyExc_ValueError);
  benchreport::python::register_summary(m);
  benchreport::python::register_compare(m);
  benchreport::python::register_dataset(m);
  benchreport::python::register_report(m);
  benchreport::python::register_presets(m);
  benchreport::python::register_scaling(m);
  benchreport::python::register_history(m);
}
