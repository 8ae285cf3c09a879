#pragma once
// Writing runs into a store, and reading them back whole for an export
// (docs/store.md). Every write is one BEGIN IMMEDIATE transaction on the
// Store's own connection: one writer at a time, all or nothing.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/store/run_rows.hpp"
#include "benchreport/store/store.hpp"

namespace benchreport::store {

// A run with every row it is stored as.
struct FullRun {
  std::optional<std::int64_t> run_id;  // none: the store numbers it
  std::optional<std::int64_t> seq;     // none: the commit's place on the branch
  std::string commit_sha;
  std::string branch;
  std::string time;
  std::optional<std::string> source;
  std::optional<std::string> environment_json;  // none only in version 1 runs
  RunRows rows;
  std::optional<std::string> checksum;  // an export's: the content hash of its rows at export time
};

// What `record` did: the new run's id, or none when the same content was
// already stored (`note` says which run holds it).
struct Recorded {
  std::optional<std::int64_t> run_id;
  std::string note;
};

// What a record adds to the dataset: where it came from and what it ran on.
struct RecordRequest {
  std::string source;                 // the input files, one a line
  std::optional<std::string> commit;  // the files' metadata wins (run_context.hpp)
  std::optional<std::string> branch;
  std::optional<std::string> time;  // ISO-8601 (utc_time.hpp); none: now
  Labels ci;                        // CI variables set
  Labels env;                       // the user's KEY=VALUE facts
};

// Stores `dataset` as one run: skipped when a run with its content hash is
// stored, else numbered and placed on its branch (the commit's earlier runs'
// seq, else one past the branch's last).
Recorded record(const Store& store, const Dataset& dataset, const RecordRequest& request);

struct ImportCounts {
  std::int64_t imported = 0;
  std::int64_t skipped = 0;
};

// Adds `runs` (an export read back from `where`) in one transaction: into an
// empty store run ids and seqs are kept (the round trip is exact), else runs
// are appended; a run whose content hash is stored already is skipped. A run
// whose rows do not give its checksum is an InputError, and nothing is added.
ImportCounts import_runs(const Store& store, std::span<const FullRun> runs, std::string_view where);

// Every run (ordered by id) with its environment and files; the sets are
// left out (export_sets reads them one run at a time).
std::vector<FullRun> export_runs(const Store& store);
// One run's sets in recorded order, with their blobs checked (check_blob).
std::vector<SetRow> export_sets(const Store& store, std::int64_t run_id);
// Per column, each set's value of that label (none where the set lacks it): an
// export's sample files have a column per label name.
std::vector<std::vector<std::optional<std::string>>> label_table(std::span<const SetRow> sets,
                                                                 std::span<const std::string> columns,
                                                                 std::string_view where);
// Every label name of the stored sets, sorted, less the store's own (kStoreLabels).
std::vector<std::string> label_names(const Store& store);

}  // namespace benchreport::store
