#pragma once
// The renderers a Python user calls on a report, bound once: on Report itself (register_report.cpp)
// and on every result that holds one (the preset results, ScalingResult), with Report's typed
// keywords and defaults.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "benchreport/render/render.hpp"

namespace benchreport::python {

// A report rendered with the GIL released (register_report.cpp).
std::string render_released(const Report& report, Format format, const RenderOptions& options);

// The <div class="benchreport"> a notebook shows, GIL released.
std::string render_fragment(const Report& report, bool sparklines = true);

// to_markdown, to_html, to_text, to_json and _repr_html_ on `cls`, rendering report_of(self).
template <class Owner, class ReportOf>
void def_report_renderers(pybind11::class_<Owner>& cls, ReportOf report_of) {
  namespace py = pybind11;
  cls.def(
         "to_markdown",
         [report_of](const Owner& r, std::size_t budget, std::optional<std::string> full_report_location,
                     bool sparklines) {
           RenderOptions o;
           o.markdown_budget = budget;
           if (full_report_location) o.full_report_location = *full_report_location;
           o.sparklines = sparklines;
           return render_released(report_of(r), Format::markdown, o);
         },
         "GitHub-flavoured Markdown held to budget UTF-8 bytes (0 = unlimited).",
         py::arg("budget") = RenderOptions{}.markdown_budget, py::kw_only(),
         py::arg("full_report_location") = py::none(), py::arg("sparklines") = true)
      .def(
          "to_html",
          [report_of](const Owner& r, bool sparklines) {
            RenderOptions o;
            o.sparklines = sparklines;
            return render_released(report_of(r), Format::html, o);
          },
          "One standalone HTML document (inline CSS, no scripts, no external assets).", py::kw_only(),
          py::arg("sparklines") = true)
      .def(
          "to_text",
          [report_of](const Owner& r, bool color, bool sparklines) {
            RenderOptions o;
            o.color = color;
            o.sparklines = sparklines;
            return render_released(report_of(r), Format::text, o);
          },
          "Aligned plain text; ANSI colour only when color is true.", py::arg("color") = false, py::kw_only(),
          py::arg("sparklines") = true)
      .def(
          "to_json",
          [report_of](const Owner& r, int indent) {
            RenderOptions o;
            o.json_indent = indent;
            return render_released(report_of(r), Format::json, o);
          },
          "JSON with schema REPORT_SCHEMA: title, blocks and data.", py::arg("indent") = RenderOptions{}.json_indent)
      .def("_repr_html_", [report_of](const Owner& r) { return render_fragment(report_of(r)); });
}

// The same for a result holding its Report as `report`; its notebook Markdown is held to the default budget.
template <class Result>
void def_report_renderers(pybind11::class_<Result>& cls) {
  def_report_renderers(cls, [](const Result& r) -> const Report& { return r.report; });
  cls.def("_repr_markdown_",
          [](const Result& r) { return render_released(r.report, Format::markdown, RenderOptions{}); });
}

}  // namespace benchreport::python
