#include "benchreport/core/error.hpp"

namespace benchreport {
const char* version() noexcept { return BENCHREPORT_VERSION; }
}  // namespace benchreport
