#pragma once
// A dataset as the rows one run of a results store holds (docs/store.md):
// the `sets` and `run_files` rows, the run's content hash and its tool and
// warnings, byte for byte what the store has always written.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport::store {

// One `sets` row (the columns name..metadata); samples and iterations are float64 little-endian bytes.
struct SetRow {
  std::string name;
  std::string labels;  // canonical JSON object
  std::string unit;
  std::optional<std::int64_t> process;
  std::string samples;
  std::optional<std::string> iterations;
  std::optional<std::string> direction;
  std::optional<std::int64_t> exact;    // 1 when the unit is exact; none in version 1 rows
  std::optional<std::int64_t> file;     // position in the run's files
  std::optional<std::string> metadata;  // canonical JSON [[key, verbatim JSON], ...]
};

// One `run_files` row (without the run id).
struct FileRow {
  std::int64_t position = 0;
  std::string file;
  std::optional<std::string> format;
  std::string metadata;  // the reader's run metadata, verbatim JSON
};

struct RunRows {
  std::string content_hash;
  std::optional<std::string> tool;      // the readers' formats, sorted, comma-joined
  std::optional<std::string> warnings;  // canonical JSON list, none when there are none
  std::vector<FileRow> files;
  std::vector<SetRow> sets;
};

// A string as Python's json.dumps(ensure_ascii=False) writes it (the core's
// append_json_string; core json_string escapes more): the store's canonical JSON. Named apart from
// the core's json_string, which has the same signature and escapes differently.
std::string python_json_string(std::string_view text);

// What makes a run the same run: SHA-256 (hex) of commit, branch and, per set
// in order, labels, unit, direction, samples and iterations. Time, environment
// and file names are left out, so recording the same results again is a duplicate.
std::string content_hash(std::string_view commit_sha, std::string_view branch, std::span<const SetRow> sets);

// The rows of `dataset` recorded as commit `commit_sha` of `branch`.
RunRows run_rows(const Dataset& dataset, std::string_view commit_sha, std::string_view branch);

// A samples/iterations cell must be a blob of whole float64 values (as long as
// the samples when `expected_bytes` is given). `bytes` is nullopt when the cell
// is not a blob, then `type_name` names what it is. InputError names `where`
// (the store file), the set and the column.
void check_blob(std::string_view where, std::optional<std::size_t> bytes, std::string_view type_name,
                std::int64_t set_id, std::string_view column, std::optional<std::size_t> expected_bytes = std::nullopt);

}  // namespace benchreport::store
