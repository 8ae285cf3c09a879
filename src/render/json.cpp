// JSON: the report model plus its data payload under a versioned schema
// (kReportSchema); key order is fixed, so output is byte-for-byte deterministic.
#include "benchreport/render/render.hpp"

namespace benchreport {

std::string render_json(const Report& report, const RenderOptions& options) {
  std::string out;
  JsonStream stream(out, JsonWriteOptions{options.json_indent, false});
  write_report_json(report, stream);
  out += '\n';
  return out;
}

void render_json_into(const Report& report, const RenderOptions& options, const JsonSink& sink) {
  std::string buffer;
  JsonStream stream(buffer, JsonWriteOptions{options.json_indent, false}, sink);
  write_report_json(report, stream);
  buffer += '\n';
  stream.finish();
}

}  // namespace benchreport
