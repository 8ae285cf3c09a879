#pragma once
// Base → head comparison over a Dataset: pick the two sides by a label
// (e.g. revision=base vs the other revision), group sets into cases by label
// columns, pair processes by an interleaving-block label, refuse to compare
// incomparable runs, and run compare_case on every matched case.
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/data/side_declaration.hpp"
#include "benchreport/io/read.hpp"

namespace benchreport {

// The per-case options (threshold, alpha, resamples, ...) are the base: options.threshold.
struct DatasetCompareOptions : CompareOptions {
  // The baseline side: one label column and its value. The head side is the
  // other value of that column (`head_value`, or the only other value).
  std::string baseline_column{kSideLabel};
  std::string baseline_value = "base";
  std::string head_value;  // "" = the only other value of baseline_column
  // Case key columns; empty = every label column except the baseline column and
  // process_columns.
  std::vector<std::string> by;
  // Label that pairs processes: head process with label p vs base process p
  // (several sets with the same p on one side are one process, concatenated).
  // Sets without it are one process each, in dataset order.
  std::string pair_column{kPairLabel};
  // Per-process labels that never form cases.
  std::vector<std::string> process_columns = process_labels();
  unsigned threads = 0;  // compare_cases worker threads (0 = one per usable CPU)
  // The keys below default to what the readers declare (io/read.hpp reader_comparability()).
  // Refuse when these values differ between the base and head sets of a case
  // (looked up in the set metadata, else depth-first in its run's metadata
  // JSON; absent = unknown: only values recorded on both sides can differ).
  std::vector<std::string> run_checks = reader_comparability().run_keys;
  // Refuse when a run's metadata declares different values for the two sides.
  std::vector<SideDeclaration> side_declarations = reader_comparability().side_declarations;
  // Refuse when these set-metadata values differ between base and head sets of a case.
  std::vector<std::string> work_checks = reader_comparability().work_keys;
  // Run-metadata keys holding each revision's commit; equal on both sides = A/A run.
  std::vector<std::string> commit_keys = reader_comparability().commit_keys;
  bool check_comparability = true;
  // Cases present on one side only: listed as new/removed (true) or refused (false).
  bool allow_new_and_removed = true;
  // Launch noise per case name (join_key of the case key, "a / b"), estimated from a branch's stored
  // runs (stats/launch_noise.hpp); cases not in it are compared as without a store.
  std::map<std::string, LaunchNoise> launch_noise;
};

struct CaseResult {
  std::vector<std::string> key;  // values of DatasetComparison::by
  std::vector<std::size_t> base_sets, head_sets;
  std::vector<std::string> pairs;  // pair label per process (sorted), "" when unpaired
  CaseComparison comparison;
};

struct DatasetComparison {
  std::vector<std::string> by;
  std::string baseline_column, base_value, head_value;
  std::string base_commit, head_commit;                                    // "" when unknown
  bool same_revision = false;                                              // A/A: both sides ran the same commit
  std::vector<CaseResult> cases;                                           // matched cases, first-appearance order
  std::vector<std::vector<std::string>> new_cases;                         // head only
  std::vector<std::vector<std::string>> removed_cases;                     // base only
  std::vector<std::vector<std::size_t>> new_case_sets, removed_case_sets;  // their sets, one list per case
  std::vector<std::string> notes;  // how cases were matched (e.g. Go's procs differ)
  CompareOptions options;
};

// Throws InputError when the baseline is missing, the head side is ambiguous,
// a `by` column does not exist, or (with check_comparability) the runs or the
// per-case work differ — the message names the case, the field and both values.
DatasetComparison compare(const Dataset& dataset, const DatasetCompareOptions& options = {});

// The head side's value of options.baseline_column (options.head_value, else
// the only other value); throws the InputError compare() throws for a missing
// baseline or an ambiguous head.
std::string head_value_of(const Dataset& dataset, const DatasetCompareOptions& options);

// The label naming the metric of a measurement (real_time, cpu_time, ...): a case column that
// tells metrics of one measurement apart.
inline constexpr std::string_view kMetricLabel = "metric";

// A case's metric: its value of the metric column ("" when the comparison has none).
std::string case_metric(const CaseResult& c, const std::vector<std::string>& by);

// A case's measurement: its key without the metric column (the key itself without one).
std::vector<std::string> measurement_key(const CaseResult& c, const std::vector<std::string>& by);

// For each case, the index of the first case of its measurement in `cases` (itself for a
// primary): the metric a reader emitted first (real_time, ns/op) stands for the measurement.
std::vector<std::size_t> measurement_primaries(std::span<const CaseResult* const> cases,
                                               const std::vector<std::string>& by);

// One side's sets of a case grouped into processes in the order the comparison
// uses them: one group per label of `pairs` (CaseResult::pairs; sets sharing
// the pair label are one process), then each set without a pair label alone.
std::vector<std::vector<std::size_t>> process_sets(const Dataset& dataset, const std::vector<std::size_t>& sets,
                                                   const std::string& pair_column,
                                                   const std::vector<std::string>& pairs);

}  // namespace benchreport
