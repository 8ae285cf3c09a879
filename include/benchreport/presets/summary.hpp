#pragma once
// The summary preset (`benchreport summary`): one row per sample set, or per group of sets pooled
// by label columns, with n, median, MAD / p50, CV, min – max, drift and a sparkline; raw samples
// in, a Report out (render it with benchreport/render/render.hpp). docs/presets.md describes it;
// the statistics are defined in docs/statistics-summary.md.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/presets/preset_result.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

// Schema name of the summary's machine-readable payload (Report::data).
inline constexpr std::string_view kSummarySchema = "benchreport-summary/1";

struct SummaryReportOptions {
  std::string title = "Summary";
  // Pool the sets that share these label values (in set order) into one row;
  // empty = one row per set, labelled by every label column.
  std::vector<std::string> by;
  // Drift: median(last k) / median(first k) - 1 (n/a below 2k samples).
  std::size_t drift_k = 5;
  // |drift| at or beyond this is highlighted (and counted in a warning note).
  double drift_limit = 0.10;
  unsigned threads = 0;  // threads of the statistics and the rows; 0 = one per usable CPU (same results)
};

// Throws InputError when the dataset has no sets, when a group mixes
// dimensions (e.g. times with throughputs: they cannot be pooled) or for a bad
// drift_k (0).
Report summary_report(const Dataset& dataset, const SummaryReportOptions& options = {});

// The report and its columnar view: one row per group, the scalar fields of report.data's
// groups (label values unprefixed, "" where a set has none; NaN where JSON has null).
using SummaryResult = PresetResult;
SummaryResult summary(const Dataset& dataset, const SummaryReportOptions& options = {}, bool with_columns = true);

}  // namespace benchreport
