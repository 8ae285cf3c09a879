#include "register.hpp"

namespace benchreport::python {
void register_summary(pybind11::module_& /*m*/) {}
}  // namespace benchreport::python
