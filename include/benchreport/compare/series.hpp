#pragma once
// The series model of a history: the sets of a Dataset grouped into cases (by
// label columns) and, within a case, into commits by one ordering label, with
// any number of processes per commit. A commit is the unit: its summary is the
// median of its per-process medians (docs/statistics-history.md).
#include <cstddef>
#include <string>
#include <vector>

#include "benchreport/core/columns.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport {

struct SeriesOptions {
  // The label naming a set's commit (or time); every set must have it.
  std::string order = "commit";
  // false: commits in order of first appearance (the order of the inputs);
  // true: sorted by label value: numbers numerically, before other values sorted
  // as text; a case holding both kinds is an InputError.
  bool sort = false;
  // Case key columns; empty = every label column except `order` and process_columns.
  std::vector<std::string> by;
  // Per-process labels that never form cases.
  std::vector<std::string> process_columns = process_labels();
  // Sets of one commit sharing this label's value are one process (samples
  // concatenated); sets without it are one process each.
  std::string process_column{kProcessLabel};
};

// One case over the commits it was measured at (ascending commit order).
struct Series {
  std::vector<std::string> key;  // values of History::by
  Unit unit;                     // the unit of the case's first set (values are in its base unit)
  Direction direction = Direction::lower_is_better;
  std::vector<std::size_t> commits;    // index into History::commits, strictly increasing
  std::vector<double> values;          // per commit: median of per-process medians (base unit)
  std::vector<std::size_t> processes;  // per commit: number of processes
  std::vector<std::size_t> samples;    // per commit: number of samples
};

struct History {
  std::string order;                 // the ordering label
  std::vector<std::string> by;       // case key columns
  std::vector<std::string> commits;  // label values in series order
  std::vector<Series> series;        // cases in first-appearance order
};

// Throws InputError when a set lacks the order label (naming the set), a `by`
// column does not exist, or a case mixes dimensions or directions.
History build_history(const Dataset& dataset, const SeriesOptions& options = {}, unsigned threads = 0);

// The points of every series as columns, one row per (case, commit) in series order: `series`
// (index into History::series), `position` (index into History::commits), `value`, `processes`, `samples`.
Columns series_points(const History& history);

// One row per (case, commit) in series order, as br.HistoryResult.series_frame shows it: the case
// labels (the last `by` column first), `commit` (its label value), then the columns of
// series_points without `series`. No columns at all when there is no series.
Columns series_frame(const History& history);

}  // namespace benchreport
