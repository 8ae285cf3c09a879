#pragma once
// What the presets return to Python (benchreport.ComparisonResult, ComparisonCase, MatrixResult,
// SummaryResult, RunnersResult): a report to render and display, its columnar view, and what else
// the preset computed. The classes are bound in preset_results.cpp, the functions that make them in
// register_presets.cpp. Results pickle as the call that made them (benchreport/_pickling.py), so
// each class takes attributes (`_call`).
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "benchreport/compare/matrix.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/preset_result.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport::python {

// br.compare: the comparison, its report and columns, and the Dataset compared (its sides become BMF).
struct ComparisonPreset {
  std::shared_ptr<const ComparisonView> view;  // shared with the report's payload, rendered from it
  Report report;
  Columns columns;
  pybind11::object dataset;                   // the benchreport.Dataset
  pybind11::object cases = pybind11::none();  // list of ComparisonCase, made on first access
};

// br.matrix: the matrix of one statistic with its report (one table) and one row per cell.
struct MatrixPreset {
  Matrix matrix;
  Report report;
  Columns columns;
};

// br.summary and br.runners: one C++ type each, so that Python sees two classes.
struct SummaryPreset : PresetResult {};
struct RunnersPreset : PresetResult {};

// The core Dataset of a benchreport.Dataset (a core Dataset as it is); TypeError naming what was given otherwise.
const Dataset& native_dataset(const pybind11::object& dataset);

// pandas.DataFrame of a result's columnar view (pandas is imported when asked for, never before).
pybind11::object data_frame(const Columns& columns);

// A report rendered with the GIL released; the HTML fragment a notebook shows.
std::string rendered(const Report& report, Format format, const RenderOptions& options);
std::string fragment(const Report& report);

// to_markdown/to_html/to_text/to_json with Report's typed keywords, and notebook display, of any
// result holding a `report` (the preset results, ScalingResult).
template <class Result>
void def_report_renderers(pybind11::class_<Result>& cls) {
  namespace py = pybind11;
  cls.def(
         "to_markdown",
         [](const Result& r, std::size_t budget, std::optional<std::string> full_report_location, bool sparklines) {
           RenderOptions o;
           o.markdown_budget = budget;
           if (full_report_location) o.full_report_location = *full_report_location;
           o.sparklines = sparklines;
           return rendered(r.report, Format::markdown, o);
         },
         "The report as GitHub-flavoured Markdown (Report.to_markdown).",
         py::arg("budget") = RenderOptions{}.markdown_budget, py::kw_only(),
         py::arg("full_report_location") = py::none(), py::arg("sparklines") = true)
      .def(
          "to_html",
          [](const Result& r, bool sparklines) {
            RenderOptions o;
            o.sparklines = sparklines;
            return rendered(r.report, Format::html, o);
          },
          "The report as one standalone HTML document (Report.to_html).", py::kw_only(), py::arg("sparklines") = true)
      .def(
          "to_text",
          [](const Result& r, bool color, bool sparklines) {
            RenderOptions o;
            o.color = color;
            o.sparklines = sparklines;
            return rendered(r.report, Format::text, o);
          },
          "The report as aligned plain text (Report.to_text).", py::arg("color") = false, py::kw_only(),
          py::arg("sparklines") = true)
      .def(
          "to_json",
          [](const Result& r, int indent) {
            RenderOptions o;
            o.json_indent = indent;
            return rendered(r.report, Format::json, o);
          },
          "The report as JSON (Report.to_json).", py::arg("indent") = RenderOptions{}.json_indent)
      .def("_repr_html_", [](const Result& r) { return fragment(r.report); })
      .def("_repr_markdown_", [](const Result& r) { return rendered(r.report, Format::markdown, RenderOptions{}); });
}

void register_preset_results(pybind11::module_& m);

}  // namespace benchreport::python
