#include "benchreport/store/write_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/core/sha256.hpp"
#include "benchreport/store/run_context.hpp"
#include "benchreport/store/stored_json.hpp"
#include "benchreport/store/utc_time.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

template <class T>
void bind_optional(Statement& statement, int index, const std::optional<T>& value) {
  if (value) statement.bind(index, *value);
}

// The environment's row (one per distinct JSON text, keyed by its SHA-256).
std::int64_t environment_id(sqlite3* db, const std::string& json) {
  const std::string digest = sha256_hex(json);
  Statement insert(db, "INSERT OR IGNORE INTO environments(hash, json) VALUES (?, ?)");
  insert.bind(1, digest).bind(2, json);
  insert.step();
  Statement select(db, "SELECT environment_id FROM environments WHERE hash = ?");
  select.bind(1, digest);
  select.step();
  return select.integer(0);
}

// The commit's place on the branch: its earlier runs' seq, else one past the last.
std::int64_t seq_of(sqlite3* db, const std::string& branch, const std::string& commit_sha) {
  Statement same(db, "SELECT seq FROM runs WHERE branch = ? AND commit_sha = ? LIMIT 1");
  same.bind(1, branch).bind(2, commit_sha);
  if (same.step()) return same.integer(0);
  Statement last(db, "SELECT MAX(seq) FROM runs WHERE branch = ?");
  last.bind(1, branch);
  return last.step() && !last.is_null(0) ? last.integer(0) + 1 : 0;
}

void insert_files(sqlite3* db, std::int64_t run_id, const std::vector<FileRow>& files) {
  Statement insert(db, "INSERT INTO run_files(run_id, position, file, format, metadata) VALUES (?,?,?,?,?)");
  for (const FileRow& f : files) {
    insert.bind(1, run_id).bind(2, f.position).bind(3, f.file).bind(5, f.metadata);
    bind_optional(insert, 4, f.format);
    insert.step();
    insert.reset();
  }
}

void insert_sets(sqlite3* db, std::int64_t run_id, const std::vector<SetRow>& sets) {
  Statement insert(db,
                   "INSERT INTO sets(run_id, name, labels, unit, process, samples, iterations, direction, exact, file,"
                   " metadata) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
  for (const SetRow& s : sets) {
    insert.bind(1, run_id).bind(2, s.name).bind(3, s.labels).bind(4, s.unit).bind_blob(6, s.samples);
    bind_optional(insert, 5, s.process);
    if (s.iterations) insert.bind_blob(7, *s.iterations);
    bind_optional(insert, 8, s.direction);
    bind_optional(insert, 9, s.exact);
    bind_optional(insert, 10, s.file);
    bind_optional(insert, 11, s.metadata);
    insert.step();
    insert.reset();
  }
}

// Inserts the run and its rows (inside the caller's transaction); returns its id.
std::int64_t insert_run(sqlite3* db, const FullRun& run) {
  Statement insert(db,
                   "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq, tool, source,"
                   " environment_id, warnings) VALUES (?,?,?,?,?,?,?,?,?,?)");
  bind_optional(insert, 1, run.run_id);
  insert.bind(2, run.rows.content_hash).bind(3, run.commit_sha).bind(4, run.branch).bind(5, run.time);
  insert.bind(6, run.seq ? *run.seq : seq_of(db, run.branch, run.commit_sha));
  bind_optional(insert, 7, run.rows.tool);
  bind_optional(insert, 8, run.source);
  insert.bind(9, environment_id(db, run.environment_json.value_or("{}")));
  bind_optional(insert, 10, run.rows.warnings);
  insert.step();
  const std::int64_t run_id = sqlite3_last_insert_rowid(db);
  insert_files(db, run_id, run.rows.files);
  insert_sets(db, run_id, run.rows.sets);
  return run_id;
}

// The stored run with this content hash, as (id, commit, branch), if any.
std::optional<StoredRun> run_with_hash(sqlite3* db, const std::string& content_hash) {
  Statement query(db, "SELECT run_id, commit_sha, branch FROM runs WHERE content_hash = ?");
  query.bind(1, content_hash);
  if (!query.step()) return std::nullopt;
  StoredRun out;
  out.run_id = query.integer(0);
  out.commit_sha = query.text(1);
  out.branch = query.text(2);
  return out;
}

std::optional<std::string> optional_blob(const Statement& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return std::string(row.bytes(column));
}

std::optional<std::int64_t> optional_integer(const Statement& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return row.integer(column);
}

}  // namespace

Recorded record(const Store& store, const Dataset& dataset, const RecordRequest& request) {
  const RunIdentity identity = run_identity(dataset, request.commit, request.branch, request.source);
  FullRun run{std::nullopt,
              std::nullopt,
              identity.commit_sha,
              identity.branch,
              utc_time(request.time),
              request.source,
              environment_json(dataset, request.ci, request.env),
              {},
              std::nullopt};
  run.rows = run_rows(dataset, run.commit_sha, run.branch);
  Recorded out;
  in_transaction(store.handle(), [&] {
    if (const auto existing = run_with_hash(store.handle(), run.rows.content_hash)) {
      out.note = fmt::format("already recorded as run {} (commit {} on {}); skipped", existing->run_id,
                             existing->commit_sha, existing->branch);
      return;
    }
    out.run_id = insert_run(store.handle(), run);
  });
  if (out.run_id) {
    out.note = fmt::format("recorded run {}: {} sets, commit {} on {}", *out.run_id, run.rows.sets.size(),
                           run.commit_sha, run.branch);
  }
  return out;
}

ImportCounts import_runs(const Store& store, std::span<const FullRun> runs, std::string_view where) {
  for (const FullRun& run : runs) {
    if (!run.checksum || content_hash(run.commit_sha, run.branch, run.rows.sets) != *run.checksum) {
      throw InputError(
          fmt::format("{}: run {} does not match its checksum (damaged export)", where, run.run_id.value_or(0)));
    }
  }
  sqlite3* db = store.handle();
  ImportCounts counts;
  in_transaction(db, [&] {
    const bool empty = query_integer(db, "SELECT COUNT(*) FROM runs") == 0;
    for (const FullRun& given : runs) {
      if (run_with_hash(db, given.rows.content_hash)) {
        ++counts.skipped;
        continue;
      }
      FullRun run = given;
      if (!empty) run.run_id = run.seq = std::nullopt;
      insert_run(db, run);
      ++counts.imported;
    }
  });
  return counts;
}

std::vector<FullRun> export_runs(const Store& store) {
  sqlite3* db = store.handle();
  Statement runs(db,
                 "SELECT r.run_id, r.content_hash, r.commit_sha, r.branch, r.time, r.seq, r.tool, r.source,"
                 " r.warnings, e.json FROM runs r LEFT JOIN environments e ON e.environment_id = r.environment_id"
                 " ORDER BY r.run_id");
  Statement files(db, "SELECT position, file, format, metadata FROM run_files WHERE run_id = ? ORDER BY position");
  std::vector<FullRun> out;
  while (runs.step()) {
    FullRun& run = out.emplace_back();
    run.run_id = runs.integer(0);
    run.rows.content_hash = runs.text(1);
    run.commit_sha = runs.text(2);
    run.branch = runs.text(3);
    run.time = runs.text(4);
    run.seq = runs.integer(5);
    run.rows.tool = runs.optional_text(6);
    run.source = runs.optional_text(7);
    run.rows.warnings = runs.optional_text(8);
    run.environment_json = runs.optional_text(9);
    files.bind(1, *run.run_id);
    while (files.step())
      run.rows.files.push_back({files.integer(0), files.text(1), files.optional_text(2), files.text(3)});
    files.reset();
  }
  return out;
}

std::vector<SetRow> export_sets(const Store& store, std::int64_t run_id) {
  Statement rows(store.handle(),
                 "SELECT set_id, name, labels, unit, process, direction, exact, file, metadata, samples, iterations"
                 " FROM sets WHERE run_id = ? ORDER BY set_id");
  rows.bind(1, run_id);
  std::vector<SetRow> out;
  while (rows.step()) {
    const std::int64_t set_id = rows.integer(0);
    check_blob(store.path(), rows.blob_size(9), python_type_name(rows.type(9)), set_id, "samples");
    SetRow& s = out.emplace_back();
    s.name = rows.text(1);
    s.labels = rows.text(2);
    s.unit = rows.text(3);
    s.process = optional_integer(rows, 4);
    s.direction = rows.optional_text(5);
    s.exact = optional_integer(rows, 6);
    s.file = optional_integer(rows, 7);
    s.metadata = rows.optional_text(8);
    s.samples = std::string(rows.bytes(9));
    s.iterations = optional_blob(rows, 10);
    if (s.iterations) {
      check_blob(store.path(), rows.blob_size(10), python_type_name(rows.type(10)), set_id, "iterations",
                 s.samples.size());
    }
  }
  return out;
}

std::vector<std::vector<std::optional<std::string>>> label_table(std::span<const SetRow> sets,
                                                                 std::span<const std::string> columns,
                                                                 std::string_view where) {
  std::vector<std::vector<std::optional<std::string>>> out(columns.size());
  for (const SetRow& set : sets) {
    const Labels labels = parse_stored_labels(set.labels, where);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto found =
          std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.first == columns[c]; });
      out[c].push_back(found == labels.end() ? std::nullopt : std::optional(found->second));
    }
  }
  return out;
}

std::vector<std::string> label_names(const Store& store) {
  Statement texts(store.handle(), "SELECT DISTINCT labels FROM sets");
  std::set<std::string> names;
  while (texts.step()) {
    for (auto& [name, value] : parse_stored_labels(texts.text(0), store.path())) names.insert(std::move(name));
  }
  return {names.begin(), names.end()};
}

}  // namespace benchreport::store
