#pragma once
// The history of a store's Parquet export computed partition by partition
// (benchreport.dask.store_history), less the scheduling: each commit's runs
// summarised per case exactly as `history --store` summarises a commit, and a
// partition's summaries, whole cases, assembled into its cases' series.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/core/columns.hpp"

namespace benchreport {

// One set of a run in the export: its _sets.arrow row, samples cut from the run's file.
struct ExportSet {
  std::int64_t run = 0;
  std::string labels_json;  // the set's labels as the store keeps them: a JSON object of strings
  std::string unit;
  std::optional<std::string> direction;  // "lower" | "higher"; none: from the unit
  bool exact = false;
  std::vector<double> samples;
  std::optional<std::vector<double>> iterations;  // per-sample weights (a set without them weighs each 1)
};

// Per case of one commit (build_history's order), one entry of each column.
struct CommitCaseSummaries {
  std::vector<std::string> by;        // the commit's case columns
  std::vector<std::string> case_key;  // canonical JSON of the case's non-empty labels (keys sorted)
  std::vector<std::string> unit;      // symbol
  std::vector<std::string> direction;
  std::vector<double> value;  // median of the per-process medians, base unit
  std::vector<std::int64_t> processes, samples;
};

// The sets of one commit's runs, labelled as Store.dataset labels them (the
// set's labels, then commit, branch and run), summarised as one commit: the
// processes of the commit's runs are pooled. `where` names the export in errors.
CommitCaseSummaries summarise_export_commit(std::span<const ExportSet> sets, std::string_view commit,
                                            std::string_view branch, std::string_view where, unsigned threads = 1);

// Rows of commit summaries holding whole cases, in any order: `commit` indexes
// `commits` (the branch's, in order), `position` is the case's place in its
// commit's summaries. A label a case lacks is "" in `by`.
struct ExportSummaryRows {
  std::span<const std::string> case_key, unit, direction;
  std::span<const std::int64_t> commit, position;
  std::span<const double> value;
  std::span<const std::int64_t> processes, samples;
};

// The columns of ExportSummaryRows, in that order and with no rows: the schema of the frame
// benchreport.dask shuffles (case_key, unit, direction texts; commit, position counts; value real;
// processes, samples counts).
Columns export_summary_schema();

// The series of the rows' cases (cases ordered by first appearance: commit,
// then position), and where each case first appears (commit, position).
std::pair<History, std::vector<std::pair<std::int64_t, std::int64_t>>> assemble_export_cases(
    const ExportSummaryRows& rows, std::vector<std::string> by, std::vector<std::string> commits);

}  // namespace benchreport
