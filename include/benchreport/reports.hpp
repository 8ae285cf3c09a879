#pragma once
// The three report presets: each turns a Dataset of raw samples into a Report
// (render it with render.hpp). docs/presets.md describes inputs and layouts.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "benchreport/dataset.hpp"
#include "benchreport/dataset_compare.hpp"
#include "benchreport/matrix.hpp"
#include "benchreport/report.hpp"

namespace benchreport {

// ---- comparison: the PR performance report (base vs head) -----------------

struct ComparisonReportOptions {
  std::string title = "Performance Report";
  DatasetCompareOptions compare;  // sides, case columns, threshold (compare.compare.threshold), checks
  // One section per value of this label (e.g. platform), in `section_order`
  // first, then in order of appearance; a dataset without it is one section.
  std::string section_column = "platform";
  std::vector<std::string> section_order{"ios", "android"};
  std::map<std::string, std::string> section_titles{{"ios", "iOS"}, {"android", "Android"}};
  // Case names: `display_names[benchmark]`, else the Nitro rule (docs/presets.md):
  // "<Implementation> <displayName metadata | camelCase(operation)()>".
  std::string benchmark_column = "benchmark";
  std::map<std::string, std::string> display_names;
  std::string display_name_key = "displayName";
  // Within-process drift: median(last k) / median(first k) - 1 per process;
  // a side is flagged when the median over its processes reaches the limit.
  double drift_limit = 0.10;
  std::size_t drift_k = 5;
  bool gate = false;  // gate note (fails on `slower`) instead of the report-only note
};

// A comparison and the display names of its cases (used by the report and Python).
struct ComparisonView {
  DatasetComparison comparison;
  std::vector<std::string> names;     // per case
  std::vector<std::string> sections;  // per case: section label value ("" without sections)
};

ComparisonView comparison_view(const Dataset& dataset, const ComparisonReportOptions& options = {});
Report comparison_report(const Dataset& dataset, const ComparisonReportOptions& options = {});
Report comparison_report(const Dataset& dataset, const ComparisonView& view, const ComparisonReportOptions& options);

// The Nitro naming rule alone: "nitro-cpp/function/add-numbers" on "ios" → "C++ addNumbers()";
// a non-empty `display_name` replaces the call. Ids without two '/' are returned as they are.
std::string nitro_case_name(std::string_view id, std::string_view platform, std::string_view display_name = "");

// ---- runners: CI runners under a parameter fingerprint ---------------------

struct RunnersReportOptions {
  std::string title = "Runner Benchmarks";
  std::string runner_column = "runner";
  std::string suite_column = "suite";    // "cpu", "disk", "cache"
  std::string metric_column = "metric";  // e.g. "coremark", "seq_read", "cache_save"
  std::string backend_column = "backend";
  std::string service_column = "service";
  // Run-metadata key whose value (an object of protocol parameters) is hashed.
  std::string protocol_key = "protocol";
  std::size_t fingerprint_digits = 12;
  // Fingerprint whose results are compared; "" = the one most runners share.
  std::string fingerprint;
};

Report runners_report(const Dataset& dataset, const RunnersReportOptions& options = {});

// ---- matrix: rows × columns of medians per table ----------------------------

struct MatrixReportOptions {
  std::string title = "Benchmarks";
  std::vector<std::string> rows{"algorithm"};
  std::vector<std::string> cols{"engine"};
  // One full matrix per combination of these labels (e.g. platform, size); the
  // first one also splits the quick comparison.
  std::vector<std::string> tables{"platform", "size"};
  MatrixStat stat = MatrixStat::median;
  // Display names for label values (columns, tables); defaults cover the ZFH example.
  std::map<std::string, std::string> names{{"native", "Native"},
                                           {"zig", "Zig"},
                                           {"zig-raw", "Zig raw (no fallback)"},
                                           {"zig-sha2", "Zig (-Dcpu=baseline+sha2)"},
                                           {"android", "Android"},
                                           {"ios", "iOS"}};
  // Rows of the quick comparison; empty = the rows with the largest gap between columns.
  std::vector<std::string> quick_rows;
  std::size_t quick_row_count = 4;
  // Column the ratio columns divide by; "" = the first column.
  std::string ratio_baseline;
};

Report matrix_report(const Dataset& dataset, const MatrixReportOptions& options = {});

}  // namespace benchreport
