#include <fmt/format.h>

#include "benchreport/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
Dataset read_go(const Source& source) {
  throw InputError(fmt::format("{}: this reader is not implemented yet", source.name));
}
}  // namespace benchreport::io
