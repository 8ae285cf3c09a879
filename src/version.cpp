#include "benchreport/error.hpp"

namespace benchreport {
const char* version() noexcept { return BENCHREPORT_VERSION; }
}  // namespace benchreport
