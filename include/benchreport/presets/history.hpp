#pragma once
// The history preset (`benchreport history`): per case a trend of the
// per-commit summaries (a sparkline cell: SVG in HTML, block characters
// elsewhere), its change points (commit, before → after, change with
// interval) and "still regressed since commit X"; a roll-up of the commits
// that moved most cases. docs/presets.md describes it; the statistics are in
// docs/statistics-history.md.
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/compare/history.hpp"
#include "benchreport/core/columns.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

inline constexpr std::string_view kHistorySchema = "benchreport-history/1";

// What a results store remembers of one change point (docs/statistics-history.md, "Alert
// states"): new, confirmed, acknowledged or resolved; the acknowledgement's note; and the likely
// cause (the environment difference at the change point), empty when none.
struct ChangePointAlert {
  std::string state;
  std::string note;
  std::string cause;
};

struct HistoryReportOptions {
  std::string title = "History";
  // Per series, per change point (the analysis' order); empty = no store: no state columns.
  std::vector<std::vector<ChangePointAlert>> alerts;
  SeriesOptions series;
  ChangePointOptions changes;
  std::size_t max_commits_listed = 10;  // roll-up rows
  // Time-series plots (HTML): cases with change points first, then the others, up to this many.
  std::size_t max_plots = 20;
};

// br.history's result: the change points of every series and their report.
struct HistoryResult {
  HistoryAnalysis analysis;
  Report report;
};

// build_history + analyze_history + the report of that analysis (no check for an empty dataset:
// its history has no series).
HistoryResult history(const Dataset& dataset, const HistoryReportOptions& options = {});

// The report of an analysis already made (analyze_history).
Report history_report(const HistoryAnalysis& analysis, const HistoryReportOptions& options = {});

// The columnar view: one row per change point with the case labels, the series' `unit`
// (base unit) and the fields of a JSON change point (`data.series[].change_points[]`).
Columns history_columns(const HistoryAnalysis& analysis);

// build_history + analyze_history + the report. Throws InputError as they do.
Report history_report(const Dataset& dataset, const HistoryReportOptions& options = {});

}  // namespace benchreport
