#pragma once
// The matrix preset (rows × columns of medians per table): raw samples in, a Report out
// (render it with benchreport/render/render.hpp). docs/presets.md describes inputs and layout.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/presets/preset_result.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

struct MatrixReportOptions {
  std::string title = "Benchmarks";
  std::vector<std::string> rows{"algorithm"};
  std::vector<std::string> cols{"engine"};
  // One full matrix per combination of these labels (e.g. platform, size); the
  // first one also splits the quick comparison.
  std::vector<std::string> tables{"platform", "size"};
  MatrixStat stat = MatrixStat::median;
  // Display names for label values (columns, tables), over those the data brings:
  // set metadata under `label_names_key`, an object {label column: display name of
  // the set's value} (the ZFH reader names its engines and platforms so).
  std::map<std::string, std::string> names;
  std::string label_names_key = "labelNames";
  // Rows of the quick comparison; empty = the rows with the largest gap between columns.
  std::vector<std::string> quick_rows;
  std::size_t quick_row_count = 4;
  // Column the ratio columns divide by; "" = the first column.
  std::string ratio_baseline;
};

Report matrix_report(const Dataset& dataset, const MatrixReportOptions& options = {});

// The report and its long form: one row per cell of every table (report.data's `cells`): the
// table, row and column labels unprefixed, `value` in base units (NaN where not measured),
// `unit`, `sets` and `best` (the row's best column, direction-aware).
PresetResult matrix_preset(const Dataset& dataset, const MatrixReportOptions& options = {}, bool with_columns = true);

}  // namespace benchreport
