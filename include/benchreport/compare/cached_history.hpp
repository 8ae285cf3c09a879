#pragma once
// A History assembled from per-commit summaries made earlier, one per (case,
// run): a results store's case_summaries cache (docs/store.md). It is ordered
// as build_history orders a dataset of the same runs: cases by first
// appearance (run, then place in the run); within a case, each commit's last
// run stands for the commit unless a pooled summary of the commit's runs
// replaces it; cases whose labels give the same key are one series.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/compare/series.hpp"

namespace benchreport {

// The cached rows as columns (equal lengths; no copies are made of them).
struct CachedRows {
  std::span<const std::int64_t> case_code;  // dense codes 0, 1, ...; the order of the codes does not matter
  std::span<const std::int64_t> run;        // place of the row's run in the branch's runs; < 0: skip the row
  std::span<const std::int64_t> position;   // place of the case in its run
  std::span<const double> value;            // the (case, run) summary, base unit
  std::span<const std::int64_t> processes;
  std::span<const std::int64_t> samples;
};

// The row of each case's first appearance (earliest run, then lowest position),
// cases in that order (CachedRows' columns; a case whose rows are all skipped
// has none). Throws InputError when the lengths differ or a code is negative.
std::vector<std::size_t> first_appearances(std::span<const std::int64_t> case_code, std::span<const std::int64_t> run,
                                           std::span<const std::int64_t> position);

// What a case's first row says of it.
struct CachedCase {
  std::vector<std::pair<std::string, std::string>> labels;  // a label named twice: the later value counts
  Unit unit;
  Direction direction = Direction::lower_is_better;
};

// The summary of a case at a commit with several runs, made from their samples together.
struct PooledSummary {
  std::size_t case_code = 0;
  std::size_t commit = 0;
  double value = 0;
  std::size_t processes = 0, samples = 0;
};

struct CachedHistoryInput {
  CachedRows rows;
  std::span<const std::int64_t> commit_of_run;  // run place -> index into `commits`
  std::span<const std::size_t> first;           // first_appearances(rows)
  std::vector<CachedCase> cases;                // one per entry of `first`
  std::vector<PooledSummary> pooled;            // a later entry for the same (case, commit) wins
  std::vector<std::string> by;                  // case key columns: a label a case lacks is ""
  std::vector<std::string> commits;
};

// The History of the cached rows. Throws InputError on inconsistent input (naming it).
History assemble_cached_history(CachedHistoryInput input);

}  // namespace benchreport
