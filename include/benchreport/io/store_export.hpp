#pragma once
// The layout of a store's Parquet export (Store.export_parquet, docs/store.md)
// that readers of it rely on: _runs.arrow lists every run (id, branch, commit,
// seq) and _sets.arrow holds one record batch per run, the runs ordered by
// branch (as UTF-8 bytes, SQLite's order), seq and run id.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

struct ExportRun {
  std::int64_t run = 0;    // run id (its samples: <commit partition>/run-<id>.parquet)
  std::int64_t batch = 0;  // its record batch in _sets.arrow
  std::string commit;
  std::int64_t seq = 0;  // the commit's position on the branch
};

// The runs of `branch` among the export's runs (the columns of _runs.arrow),
// grouped by commit in branch order (seq, then run id within a commit). Empty
// when the branch has no run. Throws InputError when the columns differ in length.
std::vector<std::vector<ExportRun>> export_commits(std::span<const std::int64_t> run_ids,
                                                   std::span<const std::string> branches,
                                                   std::span<const std::string> commits,
                                                   std::span<const std::int64_t> seqs, std::string_view branch);

}  // namespace benchreport
