#include "register.hpp"

namespace benchreport::python {
void register_compare(pybind11::module_& /*m*/) {}
}  // namespace benchreport::python
