#include "register.hpp"

namespace benchreport::python {
void register_dataset(pybind11::module_& /*m*/) {}
}  // namespace benchreport::python
