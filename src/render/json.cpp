// JSON: the report model plus its data payload under a versioned schema
// (kReportSchema); key order is fixed, so output is byte-for-byte deterministic.
#include "benchreport/render/render.hpp"

namespace benchreport {

std::string render_json(const Report& report, const RenderOptions& options) {
  return to_json(report_to_json(report), JsonWriteOptions{options.json_indent, false}) + "\n";
}

}  // namespace benchreport
