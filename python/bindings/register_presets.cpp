#include "register.hpp"

namespace benchreport::python {
void register_presets(pybind11::module_& /*m*/) {}
}  // namespace benchreport::python
