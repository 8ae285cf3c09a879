// JSON: the report model plus its data payload under a versioned schema
// (kReportSchema); key order is fixed, so output is byte-for-byte deterministic.
#include "benchreport/render/render.hpp"

namespace benchreport {
namespace {

// The whole document into `out`, handed to `sink` in pieces when there is one.
void write_document(const Report& report, const RenderOptions& options, std::string& out, const JsonSink& sink) {
  JsonStream stream(out, JsonWriteOptions{options.json_indent, false, options.threads}, sink);
  write_report_json(report, stream);
  out += '\n';
  stream.finish();
}

}  // namespace

std::string render_json(const Report& report, const RenderOptions& options) {
  std::string out;
  write_document(report, options, out, {});
  return out;
}

void render_json_into(const Report& report, const RenderOptions& options, const JsonSink& sink) {
  std::string buffer;
  write_document(report, options, buffer, sink);
}

}  // namespace benchreport
