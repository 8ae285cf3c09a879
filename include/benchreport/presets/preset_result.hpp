#pragma once
// What every preset returns with its columnar view: the report, and one row per entry of
// report.data's row list (the scalar fields of those rows, NaN where JSON has null). Python's
// result classes are this pair: report for rendering, columns for columns() and to_pandas().
#include "benchreport/core/columns.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

struct PresetResult {
  Report report;
  Columns columns;
};

}  // namespace benchreport
