// Bindings for the report model (report/report.hpp, report/table.hpp), the renderers (render/render.hpp) and
// number formatting (report/format.hpp). These classes and functions are benchreport.Report, Table, Details, Cell,
// strong, code, link and format_*, with the argument conversion, keywords and pickling of the public API
// (python/benchreport/_reports.py re-exports them).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <memory>
#include <variant>

#include "benchreport/data/direction.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/report/report.hpp"
#include "register.hpp"
#include "report_renderers.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

using Samples = py::array_t<double, py::array::c_style | py::array::forcecast>;

// ---- Python data <-> the JSON payload -------------------------------------------------

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

// Plain Python data (and numpy scalars and arrays) as a JSON value; `path` names the culprit.
Json json_from_python(py::handle value, const std::string& path) {
  if (value.is_none()) return Json();
  if (PyBool_Check(value.ptr())) return Json(value.cast<bool>());
  if (PyLong_Check(value.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0) throw InputError(fmt::format("report data {}: integer does not fit in 64 bits", path));
    return Json(static_cast<std::int64_t>(v));
  }
  if (PyFloat_Check(value.ptr())) return Json(value.cast<double>());
  if (PyUnicode_Check(value.ptr())) return Json(value.cast<std::string>());
  if (PyDict_Check(value.ptr())) {
    Json out = Json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!PyUnicode_Check(key.ptr())) {
        throw InputError(fmt::format("report data {}: keys must be str, got {}", path, type_name(key)));
      }
      const auto name = key.cast<std::string>();
      out.set(name, json_from_python(item, path + "." + name));
    }
    return out;
  }
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    Json out = Json::array();
    std::size_t i = 0;
    for (const py::handle item : value) out.push_back(json_from_python(item, fmt::format("{}[{}]", path, i++)));
    return out;
  }
  if (py::hasattr(value, "tolist")) return json_from_python(value.attr("tolist")(), path);  // numpy: plain data
  throw InputError(fmt::format("report data {}: unsupported type {} (use None, bool, int, float, str, list, dict)",
                               path, type_name(value)));
}

// The payload as Python data: floats stay floats, NaN and infinities stay as they are.
py::object python_from_json(const Json& value) {
  if (value.is_source()) return python_from_json(value.as_source().tree());
  if (value.is_null()) return py::none();
  if (value.is_bool()) return py::bool_(value.as_bool());
  if (value.is_integer()) return py::int_(value.as_integer());
  if (value.is_double()) return py::float_(value.as_double());
  if (value.is_string()) return py::str(value.as_string());
  if (value.is_array()) {
    py::list out;
    for (const Json& item : value.as_array()) out.append(python_from_json(item));
    return out;
  }
  py::dict out;
  for (const auto& [key, item] : value.as_object()) out[py::str(key)] = python_from_json(item);
  return out;
}

// ---- what the builders accept ---------------------------------------------------------

Span span_from(py::handle part) {
  if (py::isinstance<Span>(part)) return part.cast<Span>();
  return Span::plain(py::str(part));
}

Spans spans_from(py::iterable parts) {
  Spans spans;
  for (const py::handle part : parts) spans.push_back(span_from(part));
  return spans;
}

// A list item: a string, a span, or a sequence of them.
Spans item_spans(py::handle item) {
  if (PyUnicode_Check(item.ptr()) || py::isinstance<Span>(item)) return {span_from(item)};
  return spans_from(py::reinterpret_borrow<py::iterable>(item));
}

// A column: a title, or (title, align).
Column column_from(py::handle spec) {
  if (PyUnicode_Check(spec.ptr())) return Column(spec.cast<std::string>());
  const auto pair = py::reinterpret_borrow<py::sequence>(spec);
  if (pair.size() != 2)
    throw InputError(fmt::format("column {}: expected a title or (title, align)", std::string(py::repr(spec))));
  return Column(py::str(pair[0]), align_from_name(std::string(py::str(pair[1]))));
}

bool is_numpy(py::handle value, const char* kind) {
  const auto numpy = py::module_::import("numpy");
  return py::isinstance(value, numpy.attr(kind));
}

// A cell: a Cell as it is; a number as its text with its value (bools are text only).
Cell cell_from(py::handle value) {
  if (py::isinstance<Cell>(value)) return value.cast<Cell>();
  const std::string text = py::str(value);
  if (PyUnicode_Check(value.ptr()) || PyBool_Check(value.ptr())) return Cell(text);
  if (PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr())) return Cell(text, py::cast<double>(value));
  if (is_numpy(value, "bool_") || !(is_numpy(value, "integer") || is_numpy(value, "floating"))) return Cell(text);
  return Cell(text, py::cast<double>(value));
}

std::vector<Cell> cells_from(py::handle row) {
  std::vector<Cell> cells;
  for (const py::handle value : py::reinterpret_borrow<py::iterable>(row)) cells.push_back(cell_from(value));
  return cells;
}

Cell make_cell(std::string text, const std::string& role, std::optional<double> value, std::optional<Samples> samples,
               std::optional<py::dict> figures) {
  Cell cell(std::move(text), role_from_name(role));
  cell.value = value;
  if (samples) cell.samples.assign(samples->data(), samples->data() + samples->size());
  if (figures) {
    for (const auto& [name, number] : *figures) {
      cell.figures.emplace_back(py::str(name), number.is_none() ? std::nan("") : py::cast<double>(number));
    }
  }
  return cell;
}

bool higher_is_better(py::handle direction) {
  if (PyBool_Check(direction.ptr())) return direction.cast<bool>();
  const bool is_enum = py::isinstance(direction, py::module_::import("enum").attr("Enum"));
  std::string name = py::str(is_enum ? direction.attr("name") : direction);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return parse_direction(name) == Direction::higher_is_better;
}

NoteKind note_kind_from_name(const std::string& name) {
  if (name == "note") return NoteKind::note;
  if (name == "warning") return NoteKind::warning;
  throw InputError(fmt::format("unknown note kind '{}': expected note or warning", name));
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

// ---- rendering options as keywords ----------------------------------------------------

using OptSize = std::optional<std::size_t>;
using OptText = std::optional<std::string>;
using OptBool = std::optional<bool>;
using OptInt = std::optional<int>;
using OptCount = std::optional<unsigned>;

// The RenderOptions fields given by keyword; None keeps the field's default.
RenderOptions options_from(OptSize markdown_budget, OptText full_report_location, OptBool color, OptBool sparklines,
                           OptInt json_indent, OptText csv_table, OptCount threads) {
  RenderOptions o;
  if (markdown_budget) o.markdown_budget = *markdown_budget;
  if (full_report_location) o.full_report_location = *full_report_location;
  if (color) o.color = *color;
  if (sparklines) o.sparklines = *sparklines;
  if (json_indent) o.json_indent = *json_indent;
  if (csv_table) o.csv_table = *csv_table;
  if (threads) o.threads = *threads;
  return o;
}

// Binds `name` with its leading arguments followed by the RenderOptions keywords (keyword-only, None).
constexpr const char* kRenderDoc =
    "Render in one of FORMATS (\"markdown\", \"html\", \"text\", \"csv\", \"json\"); each keyword sets the "
    "RenderOptions field of that name (None keeps its default).";

template <typename Fn, typename... Leading>
void def_with_options(py::class_<Report>& cls, const char* name, Fn&& fn, const char* doc, Leading... leading) {
  cls.def(name, std::forward<Fn>(fn), doc, leading..., py::kw_only(), py::arg("markdown_budget") = py::none(),
          py::arg("full_report_location") = py::none(), py::arg("color") = py::none(),
          py::arg("sparklines") = py::none(), py::arg("json_indent") = py::none(), py::arg("csv_table") = py::none(),
          py::arg("threads") = py::none());
}

// render and render_utf8: fn(report, format, options) behind the keywords.
template <auto Fn>
auto with_options(const Report& r, const std::string& format, OptSize markdown_budget, OptText full_report_location,
                  OptBool color, OptBool sparklines, OptInt json_indent, OptText csv_table, OptCount threads) {
  return Fn(r, format_from_name(format),
            options_from(markdown_budget, full_report_location, color, sparklines, json_indent, csv_table, threads));
}

py::memoryview render_view(const Report& report, Format format, const RenderOptions& options) {
  return py::object(render_utf8(report, format, options)).attr("data").attr("toreadonly")().cast<py::memoryview>();
}

std::string render_text(const Report& report, Format format, const RenderOptions& options) {
  return render_released(report, format, options);
}

// ---- the builders of Report and Details -----------------------------------------------

Blocks& blocks_of(Report& r) { return r.blocks; }
Blocks& blocks_of(Details& d) { return d.blocks; }

// The block builders Report and Details share: each returns self for chaining, except
// add_table and add_details, which return the new container.
// *args as the stubs name them: inline parts (str or Span) and cells (str, number or Cell).
using InlineParts = py::Args<std::variant<std::string, Span>>;
using CellArgs = py::Args<std::variant<std::string, double, Cell>>;

template <typename Owner>
void def_builders(py::class_<Owner>& cls) {
  // A builder returns the same Python object (pybind11 finds the existing wrapper of `self`).
  constexpr auto same = py::return_value_policy::reference;
  cls.def(
         "add_heading",
         [](Owner& self, std::string text, int level) -> Owner& {
           blocks_of(self).add_heading(level, std::move(text));
           return self;
         },
         "A heading, level 1..6.", py::arg("text"), py::arg("level") = 2, same)
      .def(
          "add_paragraph",
          [](Owner& self, const InlineParts& parts) -> Owner& {
            blocks_of(self).add_paragraph(spans_from(parts));
            return self;
          },
          "A paragraph of plain strings and strong/code/link spans.", same)
      .def(
          "add_note",
          [](Owner& self, const InlineParts& parts, const std::string& kind) -> Owner& {
            blocks_of(self).add_note(spans_from(parts), note_kind_from_name(kind));
            return self;
          },
          "A callout; kind \"note\" or \"warning\".", py::kw_only(), py::arg("kind") = "note", same)
      .def(
          "add_list",
          [](Owner& self, const py::iterable& items) -> Owner& {
            std::vector<Spans> list;
            for (const py::handle item : items) list.push_back(item_spans(item));
            blocks_of(self).add_list(std::move(list));
            return self;
          },
          "A bullet list; each item is a string, a span or a sequence of them.", py::arg("items"), same)
      .def(
          "add_table",
          [](Owner& self, const py::iterable& columns, const py::iterable& rows, std::string caption, std::string id,
             std::string footnote) -> Table& {
            std::vector<Column> specs;
            for (const py::handle spec : columns) specs.push_back(column_from(spec));
            Table& table = blocks_of(self).add_table(std::move(specs), std::move(caption), std::move(id));
            for (const py::handle row : rows) table.add_row(cells_from(row));
            table.footnote = std::move(footnote);
            return table;
          },
          "A table. columns: titles or (title, align) with align left/right/center; rows: str, number or Cell.",
          py::arg("columns"), py::arg("rows") = py::tuple(), py::kw_only(), py::arg("caption") = "", py::arg("id") = "",
          py::arg("footnote") = "", py::return_value_policy::reference_internal)
      .def(
          "add_details",
          [](Owner& self, std::string summary, bool open) -> Details& {
            return blocks_of(self).add_details(std::move(summary), open);
          },
          "A collapsible section; add blocks to the returned Details.", py::arg("summary"), py::kw_only(),
          py::arg("open") = false, py::return_value_policy::reference_internal)
      .def(
          "add_footnote",
          [](Owner& self, std::string text) -> Owner& {
            blocks_of(self).add_footnote(std::move(text));
            return self;
          },
          "Small print under the preceding content.", py::arg("text"), same)
      .def("__len__", [](Owner& self) { return blocks_of(self).size(); });
}

// ---- pickling ---------------------------------------------------------------------------

// A report pickles as its compact JSON (title and every block, plots included) and its data
// as Python data (the JSON writes NaN as null; pickle keeps it).
py::tuple report_state(const Report& r) {
  RenderOptions options;
  options.json_indent = 0;
  return py::make_tuple(render_released(r, Format::json, options), python_from_json(r.data));
}

Report report_from_state(const py::tuple& state) {
  if (state.size() != 2) throw InputError("Report state: expected (JSON text, data)");
  Report report = read_report_json(metadata::parse_json(state[0].cast<std::string>(), "Report state"));
  report.data = json_from_python(state[1], "$");
  return report;
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
  m.def(
      "strong", [](py::handle text) { return Span::bold(py::str(text)); }, "Bold inline text.", py::arg("text"));
  m.def(
      "code", [](py::handle text) { return Span::code(py::str(text)); }, "Inline code (shown verbatim).",
      py::arg("text"));
  m.def(
      "link", [](py::handle text, py::handle url) { return Span::link(py::str(text), py::str(url)); },
      "A link; URLs with schemes other than http, https and mailto render as plain text.", py::arg("text"),
      py::arg("url"));

  py::class_<Cell>(m, "Cell", R"doc(One table cell.

text: exactly what is shown (already formatted, e.g. ``format_time(x)``).
role: one of ``ROLES``: drives colouring (HTML classes, ANSI colours), bold for ``best`` and a code span for ``code``.
value: the number behind the text, kept in JSON (and HTML ``data-value``).
samples: optional samples in measurement order (flattened), drawn as a sparkline.
figures: more numbers behind the text as ``{name: number}`` (an interval's ``lower`` and ``upper``); CSV gives
    each a numeric column ``"<title> (<name>)"``. None reads as NaN.)doc")
      .def(py::init(&make_cell), py::arg("text"), py::arg("role") = "none", py::arg("value") = py::none(),
           py::arg("samples") = py::none(), py::arg("figures") = py::none())
      .def_readonly("text", &Cell::text)
      .def_property_readonly("role", [](const Cell& c) { return std::string(role_name(c.role)); })
      .def_readonly("value", &Cell::value)
      .def_readonly("figures", &Cell::figures, "More numbers behind the text as (name, number): CSV columns.")
      .def_property_readonly("samples",
                             [](const Cell& c) { return py::array_t<double>(c.samples.size(), c.samples.data()); });

  py::class_<Table>(m, "Table", "A table inside a report; returned by add_table.")
      .def(
          "add_row", [](Table& self, const CellArgs& cells) -> Table& { return self.add_row(cells_from(cells)); },
          "Append one row (one cell per column: str, number or Cell).", py::return_value_policy::reference)
      .def(
          "add_rows",
          [](Table& self, const py::iterable& rows) -> Table& {
            for (const py::handle row : rows) self.add_row(cells_from(row));
            return self;
          },
          "Append several rows.", py::arg("rows"), py::return_value_policy::reference)
      .def_readwrite("footnote", &Table::footnote)
      .def_readwrite("records_when_wide", &Table::records_when_wide,
                     "Text: a table wider than 160 columns is written as one record per row (False: one line per row).")
      .def_readonly("id", &Table::id)
      .def_readonly("caption", &Table::caption)
      .def_property_readonly(
          "columns",
          [](const Table& t) {
            std::vector<std::pair<std::string, std::string>> out;
            for (const Column& c : t.columns) out.emplace_back(c.title, std::string(align_name(c.align)));
            return out;
          },
          "(title, align) pairs.")
      .def_property_readonly("rows", [](const Table& t) { return t.rows; })
      .def("__len__", [](const Table& t) { return t.rows.size(); });

  py::class_<Details> details(m, "Details", "A collapsible section (<details> in Markdown/HTML, expanded in text).");
  details.def_readonly("summary", &Details::summary).def_readwrite("open", &Details::open);
  def_builders(details);

  py::class_<Report> report(m, "Report",
                            R"doc(A report: a title, ordered blocks and a machine-readable ``data`` payload.

>>> r = Report("Performance Report")
>>> r.add_heading("iOS").add_table(["Benchmark", ("p50", "right")], [["C++ add()", "851.2 ns"]]))doc");
  report.def(py::init<std::string>(), py::arg("title") = "")
      .def_readwrite("title", &Report::title)
      .def_property(
          "data", [](const Report& r) { return python_from_json(r.data); },
          [](Report& r, py::handle value) { r.data = json_from_python(value, "$"); },
          "JSON-compatible payload (dict/list/str/int/float/bool/None; numpy converted; NaN kept).")
      .def_static(
          "_from_core", [](Report& report) -> Report& { return report; },
          "A report built in C++ (a preset's) is already a Report: the same object back.", py::arg("report"),
          py::return_value_policy::reference);
  def_builders(report);
  def_with_options(report, "render", &with_options<render_text>, kRenderDoc, py::arg("format"));
  def_with_options(report, "render_utf8", &with_options<render_view>,
                   "As render, as a read-only view of the rendered UTF-8 (for files: neither a str nor a bytes "
                   "copy of a large report is built).",
                   py::arg("format"));
  def_with_options(
      report, "render_to_fd",
      [](const Report& r, int fd, const std::string& format, OptSize markdown_budget, OptText full_report_location,
         OptBool color, OptBool sparklines, OptInt json_indent, OptText csv_table, OptCount threads) {
        render_to_fd(
            r, format_from_name(format),
            options_from(markdown_budget, full_report_location, color, sparklines, json_indent, csv_table, threads),
            fd);
      },
      "As render, written into the open file descriptor fd a piece at a time (JSON through a buffer of about 1 MiB: "
      "a report of any size is never held whole). Raises OSError when a write fails.",
      py::arg("fd"), py::arg("format"));
  def_report_renderers(report, [](const Report& r) -> const Report& { return r; });
  report
      .def("to_html_fragment", &render_fragment,
           "A <div class=\"benchreport\"> with scoped CSS, for notebooks and embedding.", py::kw_only(),
           py::arg("sparklines") = true)
      .def(
          "to_csv",
          [](const Report& r, OptText table) {
            return render_text(r, Format::csv, options_from({}, {}, {}, {}, {}, table, {}));
          },
          "All tables (each after a \"# caption\" line), or only the table with id table.",
          py::arg("table") = py::none())
      .def(
          "to_dict",
          [](const Report& r) {
            RenderOptions options;
            options.json_indent = 0;
            return py::module_::import("json")
                .attr("loads")(render_released(r, Format::json, options))
                .cast<py::dict>();
          },
          "The JSON rendering parsed into Python objects.")
      .def("_repr_markdown_",
           [](const Report& r) { return render_text(r, Format::markdown, options_from(0, {}, {}, {}, {}, {}, {})); })
      .def(
          "_repr_pretty_",
          [](const Report& r, py::handle printer, bool cycle) {
            printer.attr("text")(cycle ? std::string("Report(...)") : render_text(r, Format::text, RenderOptions{}));
          },
          py::arg("printer"), py::arg("cycle"))
      .def("__repr__",
           [](const Report& r) {
             return fmt::format("<benchreport.Report {}: {} blocks>", std::string(py::repr(py::str(r.title))),
                                r.blocks.size());
           })
      .def("copy", [](const Report& r) { return Report(r); })
      .def(py::pickle(&report_state, &report_from_state));
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
  m.def("format_time", &format_time, R"doc(Seconds with four significant digits; NaN/inf as "—".

For example "851.2 ns", "2.250 µs", "1.600 ms", "1.500 s", "2.500 min".)doc",
        py::arg("seconds"));
  m.def(
      "format_change",
      [](double change, py::handle direction) { return format_change(change, higher_is_better(direction)); },
      R"doc(Relative change (0.6003) as "+60.03% slower" (always two decimals).

A change that rounds to 0.00% reads "~0% observed change".
direction: "lower_is_better" (times: faster/slower) or "higher_is_better" (rates: better/worse), "lower" or
"higher", an enum with those names, or a bool (True: higher is better).)doc",
      py::arg("change"), py::arg("direction") = "lower_is_better");
  m.def(
      "format_change_percent", &format_change_percent,
      R"doc(Relative change as a signed percentage without a word: "+60.03%", "-9.50%", "0.00%" (never "-0.00%").)doc",
      py::arg("change"));
  m.def("format_percent", &format_percent, R"doc(Fraction as a percentage with fixed decimals: 0.024 -> "2.4%".)doc",
        py::arg("fraction"), py::arg("decimals") = 1);
  m.def("format_fixed", &format_fixed, R"doc(Fixed decimals: 45851.1 -> "45851.10".)doc", py::arg("value"),
        py::arg("decimals") = 2);
  m.def("format_range", &format_range, R"doc(En-dash range: "42062.37–51322.25".)doc", py::arg("low"), py::arg("high"),
        py::arg("decimals") = 2);
  m.def("format_integer", &format_integer,
        R"doc(Rounded integer (ties to even), optionally grouped: 81920 -> "81,920".)doc", py::arg("value"),
        py::arg("thousands_separator") = false, py::arg("separator") = ',');
  m.def("format_rate", &format_rate, R"doc(Rate with k/M/G scaling: 45851.1 -> "45.85k ops/s".)doc",
        py::arg("per_second"), py::arg("unit") = "ops/s");
  m.def(
      "format_bytes", &format_bytes,
      R"doc(Size with binary scaling, four significant digits above whole bytes: "512 B", "1.500 KiB", "512.0 MiB".)doc",
      py::arg("size"));
  m.def("format_byte_rate", &format_byte_rate, R"doc(Throughput with binary scaling: "94.70 MiB/s".)doc",
        py::arg("bytes_per_second"));
  m.def("format_bits", &format_bits, R"doc(Bit rate with decimal scaling, four significant digits: "273.7 Mbps".)doc",
        py::arg("bits_per_second"));
  m.def(
      "format_sparkline",
      [](const Samples& samples, std::size_t width) {
        return format_sparkline(std::span<const double>(samples.data(), static_cast<std::size_t>(samples.size())),
                                width);
      },
      R"doc(Unicode block sparkline of the samples in order ("▁▃█▅").)doc", py::arg("samples"), py::arg("width") = 16);
  m.attr("UNAVAILABLE") = std::string(kUnavailable);
}

}  // namespace

std::string render_released(const Report& report, Format format, const RenderOptions& options) {
  py::gil_scoped_release release;
  return render(report, format, options);
}

std::string render_fragment(const Report& report, bool sparklines) {
  RenderOptions options;
  options.sparklines = sparklines;
  py::gil_scoped_release release;
  return render_html_fragment(report, options);
}

void register_report(py::module_& m) {
  register_model(m);
  register_formatting(m);
}

}  // namespace benchreport::python
