// Bindings for the report model (report/report.hpp, report/table.hpp), its JSON payload
// (JsonValue), the renderers (render/render.hpp) and number formatting (report/format.hpp). The typed Python skin is
// python/benchreport/_reports.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <memory>

#include "benchreport/core/error.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/report/report.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

using Samples = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A data payload as JSON text that Python's json.loads reads back to the same
// values: doubles stay floats ("1.0") and NaN/±inf stay NaN/Infinity (the
// report's own JSON writes those as null).
void append_python_json(std::string& out, const Json& value) {
  if (value.is_source()) {
    append_python_json(out, value.as_source().tree());
  } else if (value.is_double()) {
    const double d = value.as_double();
    if (std::isnan(d)) {
      out += "NaN";
    } else if (std::isinf(d)) {
      out += d > 0 ? "Infinity" : "-Infinity";
    } else {
      out += json_number(d);
    }
  } else if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const Json& item : value.as_array()) {
      if (!first) out += ',';
      first = false;
      append_python_json(out, item);
    }
    out += ']';
  } else if (value.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [key, item] : value.as_object()) {
      if (!first) out += ',';
      first = false;
      append_json_string(out, key);
      out += ':';
      append_python_json(out, item);
    }
    out += '}';
  } else {
    out += to_json(value);
  }
}

NoteKind note_kind_from_name(const std::string& name) {
  if (name == "note") return NoteKind::note;
  if (name == "warning") return NoteKind::warning;
  throw InputError(fmt::format("unknown note kind '{}': expected note or warning", name));
}

std::vector<Column> columns_from(const std::vector<std::pair<std::string, std::string>>& specs) {
  std::vector<Column> columns;
  for (const auto& [title, align] : specs) columns.emplace_back(title, align_from_name(align));
  return columns;
}

std::string render_released(const Report& report, Format format, const RenderOptions& options) {
  py::gil_scoped_release release;
  return render(report, format, options);
}

// The rendered UTF-8 as a uint8 array that owns the rendered string:
// a large report written to a file is neither decoded into a Python str and
// encoded back nor copied into a bytes object.
py::array_t<std::uint8_t> render_utf8(const Report& report, Format format, const RenderOptions& options) {
  auto text = std::make_unique<std::string>(render_released(report, format, options));
  const auto* data = reinterpret_cast<const std::uint8_t*>(text->data());
  const auto size = static_cast<py::ssize_t>(text->size());
  py::capsule owner(text.get(), [](void* held) { delete static_cast<std::string*>(held); });
  text.release();  // the capsule owns it now
  return py::array_t<std::uint8_t>({size}, {py::ssize_t{1}}, data, owner);
}

// A write(2) that failed while a report was rendered into a file.
struct WriteFailed {
  int error;
};

// Renders into the open file descriptor `fd` a piece at a time (render_into),
// without the GIL; a failed write raises OSError with its errno, and the
// caller removes the partial file.
void render_to_fd(const Report& report, Format format, const RenderOptions& options, int fd) {
  try {
    py::gil_scoped_release release;
    render_into(report, format, options, [fd](std::string_view piece) {
      while (!piece.empty()) {
        const ssize_t written = ::write(fd, piece.data(), piece.size());
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) throw WriteFailed{written < 0 ? errno : EIO};
        piece.remove_prefix(static_cast<std::size_t>(written));
      }
    });
  } catch (const WriteFailed& failed) {
    errno = failed.error;
    PyErr_SetFromErrno(PyExc_OSError);
    throw py::error_already_set();
  }
}

void register_json(py::module_& m) {
  py::class_<Json>(m, "JsonValue", "A JSON value (a report's data payload); build it with the static constructors.")
      .def(py::init<>())
      .def_static("null", [] { return Json(); })
      .def_static(
          "boolean", [](bool b) { return Json(b); }, py::arg("value"))
      .def_static(
          "integer", [](std::int64_t v) { return Json(v); }, py::arg("value"))
      .def_static(
          "number", [](double v) { return Json(v); }, py::arg("value"))
      .def_static(
          "string", [](std::string s) { return Json(std::move(s)); }, py::arg("value"))
      .def_static(
          "array", [](std::vector<Json> items) { return Json(Json::Array(std::move(items))); }, py::arg("items"))
      .def_static(
          "object",
          [](std::vector<std::pair<std::string, Json>> members) {
            Json out = Json::object();
            for (auto& [key, value] : members) out.set(std::move(key), std::move(value));
            return out;
          },
          py::arg("members"))
      .def(
          "to_python_json",
          [](const Json& value) {
            std::string out;
            append_python_json(out, value);
            return out;
          },
          "JSON text for json.loads: floats stay floats, NaN and infinities stay NaN/Infinity.")
      .def(
          "to_json", [](const Json& value) { return to_json(value); },
          "Standard JSON text (non-finite numbers as null).");
}

void register_model(py::module_& m) {
  py::class_<Span>(m, "Span", "A run of inline text: text, strong, code or link.")
      .def_static("plain", &Span::plain, py::arg("text"))
      .def_static("bold", &Span::bold, py::arg("text"))
      .def_static("code", &Span::code, py::arg("text"))
      .def_static("link", &Span::link, py::arg("text"), py::arg("url"))
      .def_property_readonly("kind",
                             [](const Span& s) {
                               static constexpr const char* kNames[] = {"text", "strong", "code", "link"};
                               return kNames[static_cast<int>(s.kind)];
                             })
      .def_readonly("text", &Span::text)
      .def_readonly("url", &Span::url);

  py::class_<Cell>(m, "Cell", "One table cell: display text, role, optional value, samples and named figures.")
      .def(py::init([](std::string text, const std::string& role, std::optional<double> value,
                       std::optional<Samples> samples, std::vector<std::pair<std::string, double>> figures) {
             Cell cell(std::move(text), role_from_name(role));
             cell.value = value;
             if (samples) {
               const double* data = samples->data();
               cell.samples.assign(data, data + samples->size());
             }
             cell.figures = std::move(figures);
             return cell;
           }),
           py::arg("text"), py::arg("role") = "none", py::arg("value") = py::none(), py::arg("samples") = py::none(),
           py::arg("figures") = std::vector<std::pair<std::string, double>>{})
      .def_readonly("text", &Cell::text)
      .def_property_readonly("role", [](const Cell& c) { return std::string(role_name(c.role)); })
      .def_readonly("value", &Cell::value)
      .def_readonly("figures", &Cell::figures, "More numbers behind the text as (name, number): CSV columns.")
      .def_property_readonly("samples",
                             [](const Cell& c) { return py::array_t<double>(c.samples.size(), c.samples.data()); });

  py::class_<Table>(m, "Table", "A table inside a report (returned by add_table).")
      .def(
          "add_row", [](Table& t, std::vector<Cell> cells) { t.add_row(std::move(cells)); }, py::arg("cells"))
      .def_readwrite("footnote", &Table::footnote)
      .def_readwrite("records_when_wide", &Table::records_when_wide)
      .def_readonly("id", &Table::id)
      .def_readonly("caption", &Table::caption)
      .def_property_readonly("columns",
                             [](const Table& t) {
                               std::vector<std::pair<std::string, std::string>> out;
                               for (const Column& c : t.columns)
                                 out.emplace_back(c.title, std::string(align_name(c.align)));
                               return out;
                             })
      .def_property_readonly("rows", [](const Table& t) { return t.rows; })
      .def("__len__", [](const Table& t) { return t.rows.size(); });

  // Declared before Blocks, so that add_details's signature names it.
  py::class_<Details> details(m, "Details", "A collapsible section (returned by add_details).");
  py::class_<Blocks>(m, "Blocks", "An ordered list of blocks with builders.")
      .def(
          "add_heading", [](Blocks& b, int level, std::string text) { b.add_heading(level, std::move(text)); },
          py::arg("level"), py::arg("text"))
      .def(
          "add_paragraph", [](Blocks& b, Spans spans) { b.add_paragraph(std::move(spans)); }, py::arg("spans"))
      .def(
          "add_note",
          [](Blocks& b, Spans spans, const std::string& kind) {
            b.add_note(std::move(spans), note_kind_from_name(kind));
          },
          py::arg("spans"), py::arg("kind") = "note")
      .def(
          "add_list", [](Blocks& b, std::vector<Spans> items) { b.add_list(std::move(items)); }, py::arg("items"))
      .def(
          "add_table",
          [](Blocks& b, const std::vector<std::pair<std::string, std::string>>& columns, std::string caption,
             std::string id) -> Table& {
            return b.add_table(columns_from(columns), std::move(caption), std::move(id));
          },
          py::arg("columns"), py::arg("caption") = "", py::arg("id") = "", py::return_value_policy::reference_internal)
      .def("add_details", &Blocks::add_details, py::arg("summary"), py::arg("open") = false,
           py::return_value_policy::reference_internal)
      .def(
          "add_footnote", [](Blocks& b, std::string text) { b.add_footnote(std::move(text)); }, py::arg("text"))
      .def("__len__", &Blocks::size);

  details.def_readonly("summary", &Details::summary)
      .def_readwrite("open", &Details::open)
      .def_property_readonly(
          "blocks", [](Details& d) -> Blocks& { return d.blocks; }, py::return_value_policy::reference_internal);

  py::class_<RenderOptions>(m, "RenderOptions")
      .def(py::init<>())
      .def_readwrite("markdown_budget", &RenderOptions::markdown_budget)
      .def_readwrite("full_report_location", &RenderOptions::full_report_location)
      .def_readwrite("color", &RenderOptions::color)
      .def_readwrite("sparklines", &RenderOptions::sparklines)
      .def_readwrite("json_indent", &RenderOptions::json_indent)
      .def_readwrite("csv_table", &RenderOptions::csv_table)
      .def_readwrite("threads", &RenderOptions::threads);

  py::class_<Report>(m, "Report", "The report model: title, blocks and a JSON data payload.")
      .def(py::init<std::string>(), py::arg("title") = "")
      .def_readwrite("title", &Report::title)
      .def_property_readonly(
          "blocks", [](Report& r) -> Blocks& { return r.blocks; }, py::return_value_policy::reference_internal)
      .def_readwrite("data", &Report::data, "The machine-readable payload (a JsonValue).")
      .def(
          "render",
          [](const Report& r, const std::string& format, const RenderOptions& options) {
            return render_released(r, format_from_name(format), options);
          },
          py::arg("format"), py::arg("options") = RenderOptions{})
      .def(
          "render_utf8",
          [](const Report& r, const std::string& format, const RenderOptions& options) {
            return render_utf8(r, format_from_name(format), options);
          },
          py::arg("format"), py::arg("options") = RenderOptions{})
      .def(
          "render_to_fd",
          [](const Report& r, const std::string& format, const RenderOptions& options, int fd) {
            render_to_fd(r, format_from_name(format), options, fd);
          },
          py::arg("format"), py::arg("options"), py::arg("fd"))
      .def(
          "render_html_fragment",
          [](const Report& r, const RenderOptions& options) {
            py::gil_scoped_release release;
            return render_html_fragment(r, options);
          },
          py::arg("options") = RenderOptions{})
      .def("copy", [](const Report& r) { return Report(r); });
  m.attr("REPORT_SCHEMA") = std::string(kReportSchema);

  // Facts the Python skin takes from here instead of repeating them.
  std::vector<std::string> roles;
  for (int i = 0; i <= static_cast<int>(CellRole::code); ++i) roles.emplace_back(role_name(static_cast<CellRole>(i)));
  m.attr("CELL_ROLES") = roles;
  std::vector<std::string> aligns;
  for (const Align a : {Align::left, Align::right, Align::center}) aligns.emplace_back(align_name(a));
  m.attr("ALIGNMENTS") = aligns;
  std::vector<std::string> formats;
  for (const Format f : {Format::markdown, Format::html, Format::text, Format::csv, Format::json}) {
    formats.emplace_back(format_name(f));
  }
  m.attr("FORMATS") = formats;
  m.attr("DEFAULT_MARKDOWN_BUDGET") = RenderOptions{}.markdown_budget;
  std::vector<std::pair<std::string, std::string>> verdict_roles;
  for (const Verdict v : {Verdict::faster, Verdict::slower, Verdict::inconclusive, Verdict::equivalent,
                          Verdict::unchanged, Verdict::added, Verdict::removed}) {
    verdict_roles.emplace_back(std::string(to_string(v)), std::string(role_name(verdict_role(v))));
  }
  m.attr("VERDICT_ROLES") = verdict_roles;
}

void register_formatting(py::module_& m) {
  m.def("format_time", &format_time, py::arg("seconds"));
  m.def(
      "format_change", [](double change, bool higher_is_better) { return format_change(change, higher_is_better); },
      py::arg("change"), py::arg("higher_is_better") = false);
  m.def("format_change_percent", &format_change_percent, py::arg("change"));
  m.def("format_percent", &format_percent, py::arg("fraction"), py::arg("decimals") = 1);
  m.def("format_fixed", &format_fixed, py::arg("value"), py::arg("decimals") = 2);
  m.def("format_range", &format_range, py::arg("low"), py::arg("high"), py::arg("decimals") = 2);
  m.def("format_integer", &format_integer, py::arg("value"), py::arg("thousands_separator") = false,
        py::arg("separator") = ',');
  m.def("format_rate", &format_rate, py::arg("per_second"), py::arg("unit") = "ops/s");
  m.def("format_bytes", &format_bytes, py::arg("bytes"));
  m.def("format_byte_rate", &format_byte_rate, py::arg("bytes_per_second"));
  m.def("format_bits", &format_bits, py::arg("bits_per_second"));
  m.def(
      "format_sparkline",
      [](const Samples& samples, std::size_t width) {
        return format_sparkline(std::span<const double>(samples.data(), static_cast<std::size_t>(samples.size())),
                                width);
      },
      py::arg("samples"), py::arg("width") = 16);
  m.attr("UNAVAILABLE") = std::string(kUnavailable);
}

}  // namespace

void register_report(py::module_& m) {
  register_json(m);
  register_model(m);
  register_formatting(m);
}

}  // namespace benchreport::python
