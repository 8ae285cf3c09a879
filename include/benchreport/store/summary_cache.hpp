#pragma once
// A branch's History from the store's `case_summaries` cache (docs/store.md):
// the cached (case, run) rows read into columns and assembled as a full
// build_history of the same runs orders them (compare/cached_history.hpp).
#include <span>
#include <string>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/store/store.hpp"

namespace benchreport::store {

// A case's key in the store: its labels as a JSON object, keys sorted, as
// Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False).
std::string case_key(const std::vector<std::string>& names, const std::vector<std::string>& values);

// The History of `branch` from its cached rows, `runs` being the branch's runs
// in order: commits by first appearance, case columns from each run's first
// row, and a commit with several runs summarised from their samples pooled
// (read from the store and summarised now). Rows of runs not listed are skipped.
History cached_branch_history(const Store& store, const std::string& branch, std::span<const StoredRun> runs,
                              unsigned threads);

}  // namespace benchreport::store
