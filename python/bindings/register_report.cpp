#include "register.hpp"

namespace benchreport::python {
void register_report(pybind11::module_& /*m*/) {}
}  // namespace benchreport::python
