#pragma once
// The scaling preset (`benchreport scaling`): size families fitted against
// growth models, with log–log plots and residuals; with two sides, the change
// of growth from base to head. Raw samples in, a Report out. docs/presets.md
// describes the layout, docs/statistics-scaling.md the statistics.
#include <string>
#include <string_view>

#include "benchreport/compare/scaling.hpp"
#include "benchreport/core/columns.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

inline constexpr std::string_view kScalingSchema = "benchreport-scaling/1";

struct ScalingReportOptions {
  std::string title = "Scaling Report";
  ScalingOptions scaling;
  int heading_level = 2;  // of the section headings
};

// br.scaling's result: the fits (or comparisons) of every family and their report.
struct ScalingPreset {
  ScalingResult result;
  Report report;
};

ScalingPreset scaling_preset(const Dataset& dataset, const ScalingReportOptions& options = {});
Report scaling_report(const Dataset& dataset, const ScalingReportOptions& options = {});
Report scaling_report(const ScalingResult& result, const ScalingReportOptions& options = {});

// The report's blocks for `result` (tables, plots, residuals, notes) appended to
// `blocks`; the comparison preset adds them as its scaling section.
void add_scaling_blocks(Blocks& blocks, const ScalingResult& result, int heading_level = 2);

// The machine-readable payload: every fit, model, interval and residual.
Json scaling_json(const ScalingResult& result);
// The columnar view: one row per family comparison (compared: family, base_* and head_* fit
// fields, the change's fields) or per fit, with the scalar fields of the JSON objects.
Columns scaling_columns(const ScalingResult& result);

}  // namespace benchreport
