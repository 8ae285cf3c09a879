// benchreport._core: the compiled core. One register_<area>.cpp per header area.
#include <exception>
#include <pybind11/pybind11.h>

#include "benchreport/core/error.hpp"
#include "benchreport/core/worker_pool.hpp"
#include "exceptions.hpp"
#include "register.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  // Claim this thread's C++ exception state now (see
  // core/worker_pool.hpp): a bad_alloc thrown later must not need an allocation.
  [[maybe_unused]] volatile int claimed = std::uncaught_exceptions();  // volatile: the call is pure
  // The helper threads start on first use (core/worker_pool.hpp), not at import:
  // `import benchreport` starts no thread. A program that will compute under an
  // address-space limit calls start_worker_pool() first, while memory is there.
  m.doc() = "benchreport compiled core (statistics, comparison, readers, reports)";
  m.attr("__version__") = benchreport::version();
  benchreport::python::register_decoded_exception<benchreport::InputError>(
      m, "InputError", PyExc_ValueError, "Bad input: the message names the file, line or field.");
  m.def("start_worker_pool", &benchreport::start_worker_pool,
        "Starts the helper threads now (else the first parallel loop does): call it before setting an "
        "address-space limit (docs/hardening.md).");
  benchreport::python::register_summary(m);
  benchreport::python::register_compare(m);
  benchreport::python::register_moderated(m);
  benchreport::python::register_launch_noise(m);
  benchreport::python::register_dataset(m);
  benchreport::python::register_report(m);
  benchreport::python::register_presets(m);
  benchreport::python::register_scaling(m);
  benchreport::python::register_history(m);
  benchreport::python::register_outputs(m);
  benchreport::python::register_cli(m);
  benchreport::python::register_dask(m);
  benchreport::python::register_notebook(m);
  benchreport::python::register_store(m);
}
