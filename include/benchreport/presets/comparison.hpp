#pragma once
// The comparison preset (the PR performance report, base vs head): raw samples in, a Report out
// (render it with benchreport/render/render.hpp). docs/presets.md describes inputs and layout.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/compare/dataset.hpp"
#include "benchreport/compare/process_drift.hpp"
#include "benchreport/core/columns.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

// The dataset comparison's options (sides, case columns, checks, and its base the per-case
// options: options.threshold) are the base; the report adds its layout.
struct ComparisonReportOptions : DatasetCompareOptions {
  std::string title = "Performance Report";
  // One section per value of this label (e.g. platform), in `section_order`
  // first, then in order of appearance; a dataset without it is one section.
  // Section values without a title show as they are.
  std::string section_column = "platform";
  std::vector<std::string> section_order;
  std::map<std::string, std::string> section_titles;
  // Case names: `display_names[benchmark]`, else `case_name(benchmark, section,
  // displayName metadata)`, else the displayName metadata, else the benchmark.
  // Left empty, section_order, section_titles and case_name take the
  // conventions of the format the data was read with (io/read.hpp
  // format_conventions: Nitro's sections iOS, Android and its naming rule).
  std::string benchmark_column = "benchmark";
  std::map<std::string, std::string> display_names;
  std::function<std::string(std::string_view id, std::string_view section, std::string_view display_name)> case_name;
  std::string display_name_key = "displayName";
  // Within-process drift: median(last k) / median(first k) - 1 per process;
  // a side is flagged when the median over its processes reaches the limit.
  double drift_limit = 0.10;
  std::size_t drift_k = 5;
  bool gate = false;  // gate note (fails on `slower`) instead of the report-only note
};

// Within-process drift of both sides of a case (drift_k, trend test beyond drift_limit).
struct CaseDrift {
  ProcessDrift base, head;
};

// A case measured on one side only: a row of the comparison's tables with the other side empty.
struct OneSidedCase {
  CaseResult result;  // its key and the sets of its side; comparison: that side's median, verdict added/removed
  std::string name, row_name, metric, section;  // as ComparisonView's per case
  bool primary = true;                          // its measurement's first metric among all cases
  std::size_t before = 0;  // its row comes before matched case `before` (cases.size(): after the last)
};

// A comparison and the display names of its cases (used by the report and Python).
struct ComparisonView {
  DatasetComparison comparison;
  std::vector<std::string> names;       // per case
  std::vector<std::string> row_names;   // per case: the name without its metric (shown in a Metric column)
  std::vector<std::string> metrics;     // per case: its metric label value ("" without a metric column)
  std::vector<std::size_t> primaries;   // per case: the case of its measurement's primary metric (itself for one)
  std::vector<std::string> sections;    // per case: section label value ("" without sections)
  std::vector<CaseDrift> drifts;        // per case
  std::vector<OneSidedCase> one_sided;  // the comparison's new and removed cases, in the stable order
};

// Cases are in a stable order: the order of the base side's first process when every base process
// lists its measurements in that order, else by name (random interleaving shuffles each file);
// the metrics of one measurement stay together in the order the reader emitted them. Cases on one
// side only take their place in the same order (a head-only case has no base place: by name, after).
ComparisonView comparison_view(const Dataset& dataset, const ComparisonReportOptions& options = {});
Report comparison_report(const Dataset& dataset, const ComparisonReportOptions& options = {});
// The columnar view of a comparison: one row per case with the scalar fields of the JSON
// `data` case (name, section, the case columns, unit_base, report/case_fields.hpp, drift), the
// cases on one side only among them (verdict added/removed, the other side's figures NaN).
Columns comparison_columns(const Dataset& dataset, const ComparisonView& view);
// The report's JSON payload renders its per-case rows from `view` when written, so the report
// keeps the view alive (shared) instead of a tree per case.
Report comparison_report(const Dataset& dataset, std::shared_ptr<const ComparisonView> view,
                         const ComparisonReportOptions& options);

// Case comparisons made without a Dataset (compare_case / compare_cases; Python's notebook view of
// CompareResults): the comparison preset's change table, values in the input's unit, and the warnings.
Report case_comparisons_report(std::span<const CaseComparison* const> cases, const std::string& title);

}  // namespace benchreport
