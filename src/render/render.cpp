// The format dispatcher: names of the formats and one entry point that hands a
// Report to the renderer of the format asked for. Each renderer stays one file.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/render/render.hpp"
namespace benchreport {

std::string_view format_name(Format format) {
  switch (format) {
    case Format::markdown: return "markdown";
    case Format::html: return "html";
    case Format::text: return "text";
    case Format::csv: return "csv";
    case Format::json: return "json";
  }
  return "markdown";
}

Format format_from_name(std::string_view name) {
  if (name == "markdown" || name == "md") return Format::markdown;
  if (name == "html") return Format::html;
  if (name == "text" || name == "txt") return Format::text;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  throw InputError(fmt::format("unknown report format '{}': expected markdown, html, text, csv or json", name));
}

std::string render(const Report& report, Format format, const RenderOptions& options) {
  switch (format) {
    case Format::markdown: return render_markdown(report, options);
    case Format::html: return render_html(report, options);
    case Format::text: return render_text(report, options);
    case Format::csv: return render_csv(report, options);
    case Format::json: return render_json(report, options);
  }
  throw InputError("unknown report format");
}

void render_into(const Report& report, Format format, const RenderOptions& options, const JsonSink& sink) {
  if (format == Format::json) {
    render_json_into(report, options, sink);
  } else {
    sink(render(report, format, options));
  }
}

}  // namespace benchreport
