#include "benchreport/store/store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>

#include "benchreport/core/error.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/store/stored_json.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

// Version 1 as it was first written; later versions are migrations from it, so
// every store, new or old, has the same tables column for column.
constexpr std::string_view kSchemaV1[] = {
    "CREATE TABLE runs(\n  run_id INTEGER PRIMARY KEY,\n  content_hash TEXT UNIQUE NOT NULL,\n"
    "  commit_sha TEXT NOT NULL,\n  branch TEXT NOT NULL,\n  time TEXT NOT NULL,\n  seq INTEGER NOT NULL,\n"
    "  tool TEXT,\n  source TEXT\n)",
    "CREATE TABLE sets(\n  set_id INTEGER PRIMARY KEY,\n  run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n  labels TEXT NOT NULL,\n  unit TEXT NOT NULL,\n  process INTEGER,\n"
    "  samples BLOB NOT NULL,\n  iterations BLOB\n)",
    "CREATE INDEX sets_run ON sets(run_id)",
    "CREATE INDEX runs_branch_seq ON runs(branch, seq)",
};

// Version 2: environments, the reader's per-file and per-set metadata, directions, change
// points and the per-(case, commit) summary cache. Version 1 runs keep NULL environments.
constexpr std::string_view kMigrate1To2[] = {
    "CREATE TABLE environments(environment_id INTEGER PRIMARY KEY, hash TEXT UNIQUE NOT NULL, json TEXT NOT NULL)",
    "ALTER TABLE runs ADD COLUMN environment_id INTEGER REFERENCES environments",
    "ALTER TABLE runs ADD COLUMN warnings TEXT",
    "CREATE TABLE run_files(run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, position INTEGER NOT NULL,"
    " file TEXT NOT NULL, format TEXT, metadata TEXT NOT NULL, PRIMARY KEY(run_id, position))",
    "ALTER TABLE sets ADD COLUMN direction TEXT",
    "ALTER TABLE sets ADD COLUMN exact INTEGER",
    "ALTER TABLE sets ADD COLUMN file INTEGER",
    "ALTER TABLE sets ADD COLUMN metadata TEXT",
    "CREATE TABLE case_summaries(branch TEXT NOT NULL, case_key TEXT NOT NULL, run_id INTEGER NOT NULL"
    " REFERENCES runs ON DELETE CASCADE, position INTEGER NOT NULL, labels TEXT NOT NULL, unit TEXT NOT NULL,"
    " direction TEXT NOT NULL, value REAL NOT NULL, processes INTEGER NOT NULL, samples INTEGER NOT NULL,"
    " PRIMARY KEY(branch, case_key, run_id))",
    "CREATE INDEX case_summaries_run ON case_summaries(branch, run_id, position)",
    "CREATE TABLE change_points(change_id INTEGER PRIMARY KEY, branch TEXT, case_key TEXT, commit_sha TEXT,"
    " direction TEXT, change REAL, state TEXT CHECK(state IN ('new','confirmed','acknowledged','resolved')),"
    " note TEXT, updated TEXT, UNIQUE(branch, case_key, commit_sha))",
};

// Takes a version-`from` store to version from + 1 (inside the open transaction).
void migrate(sqlite3* db, int from) {
  if (from == 0) {
    for (auto statement : kSchemaV1) execute(db, statement);
  } else {
    for (auto statement : kMigrate1To2) execute(db, statement);
    execute(db, fmt::format("PRAGMA application_id = {}", kApplicationId));
  }
}

const char* const kRunColumns =
    "SELECT r.run_id, r.commit_sha, r.branch, r.time, r.seq, r.tool, r.source, e.json FROM runs r"
    " LEFT JOIN environments e ON e.environment_id = r.environment_id";

StoredRun stored_run(const Statement& row) {
  return {row.integer(0), row.text(1),          row.text(2),          row.text(3),
          row.integer(4), row.optional_text(5), row.optional_text(6), row.optional_text(7)};
}

void append_float64(std::vector<double>& out, std::string_view bytes) {
  const std::size_t at = out.size();
  out.resize(at + bytes.size() / sizeof(double));
  if (!bytes.empty()) std::memcpy(out.data() + at, bytes.data(), bytes.size());
}

// A set's iterations cell, checked once every samples cell of the run is.
struct IterationCell {
  std::int64_t set_id;
  bool null;
  std::optional<std::size_t> bytes;
  std::string_view type;
};

// Every set of the runs, gathered before any is added: a set without
// iterations weighs each sample 1 only when another set has iterations.
struct PendingSet {
  Labels labels;
  std::string unit;
  std::string samples;
  std::optional<std::string> iterations;
  std::optional<std::string> direction;
  bool exact = false;
  std::string run;
  Metadata metadata;
};

}  // namespace

Store Store::open(const std::string& path, bool create, double busy_timeout) {
  std::error_code error;
  const bool exists = std::filesystem::exists(path, error) &&
                      (std::filesystem::is_directory(path, error) || std::filesystem::file_size(path, error) > 0);
  if (!exists && !create) throw InputError(fmt::format("{}: no such store", path));
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw InputError(fmt::format("{}: cannot open the store: {}", path, message));
  }
  sqlite3_busy_timeout(db, static_cast<int>(std::min(busy_timeout * 1000.0, 2e9)));
  Store store(db, path);
  try {
    store.prepare();
  } catch (const SqliteError& e) {
    throw InputError(fmt::format("{}: not a benchreport store ({})", path, e.message()));
  }
  return store;
}

Store::Store(Store&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Store& Store::operator=(Store&& other) noexcept {
  if (this != &other) {
    close();
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Store::~Store() { close(); }

sqlite3* Store::handle() const {
  if (db_ == nullptr) throw StoreError(path_, "the store is closed");
  return db_;
}

void Store::close() noexcept {
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

int Store::schema_version() const { return static_cast<int>(query_integer(handle(), "PRAGMA user_version")); }

void Store::prepare() {
  execute(db_, "PRAGMA foreign_keys = ON");
  int version = check_version();
  if (version < kSchemaVersion || query_text(db_, "PRAGMA journal_mode") != "wal") {
    execute(db_, "PRAGMA journal_mode = WAL");
  }
  execute(db_, "PRAGMA synchronous = NORMAL");  // in WAL: durable at checkpoints, never corrupt
  // Up to 64 MiB of page cache (SQLite's default is 2 MiB): a history writes 10^6 summary rows
  // into the case_summaries index, whose pages then stay in memory instead of being re-read.
  execute(db_, fmt::format("PRAGMA cache_size = -{}", kCacheKib));
  if (version == kSchemaVersion) return;
  in_transaction(db_, [&] {
    version = check_version();  // another process may have created or migrated it meanwhile
    for (; version < kSchemaVersion; ++version) {
      migrate(db_, version);
      if (version > 0) execute(db_, fmt::format("PRAGMA user_version = {}", version + 1));
    }
  });
}

int Store::check_version() const {
  const auto version = static_cast<int>(query_integer(db_, "PRAGMA user_version"));
  const std::int64_t application = query_integer(db_, "PRAGMA application_id");
  bool any_table = false;
  bool runs_table = false;
  Statement tables(db_, "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (tables.step()) {
    any_table = true;
    runs_table = runs_table || tables.text(0) == "runs";
  }
  if (version > kSchemaVersion) {
    throw InputError(
        fmt::format("{}: store schema version {} is newer than this benchreport reads (up to {}); "
                    "upgrade benchreport",
                    path_, version, kSchemaVersion));
  }
  if ((application != 0 && application != kApplicationId) || (version == 0 && any_table) ||
      (version != 0 && !runs_table)) {
    throw InputError(fmt::format("{}: not a benchreport store (an SQLite database with other tables)", path_));
  }
  return version;
}

std::vector<StoredRun> Store::runs(const std::optional<std::string>& branch) const {
  Statement query(handle(), std::string(kRunColumns) + (branch ? " WHERE r.branch = ?" : "") +
                                " ORDER BY r.branch, r.seq, r.run_id");
  if (branch) query.bind(1, *branch);
  std::vector<StoredRun> out;
  while (query.step()) out.push_back(stored_run(query));
  return out;
}

StoredRun Store::run(std::int64_t run_id) const {
  Statement query(handle(), std::string(kRunColumns) + " WHERE r.run_id = ?");
  query.bind(1, run_id);
  if (!query.step()) throw InputError(fmt::format("{}: no run {}", path_, run_id));
  return stored_run(query);
}

ReadRuns Store::read_runs(std::span<const StoredRun> runs) const {
  ReadRuns out;
  std::map<std::string, std::int64_t, std::less<>> first_run_of_file;
  std::map<std::string, Labels, std::less<>> parsed;  // label text -> its labels, less the store's
  std::vector<PendingSet> sets;
  std::vector<std::string> warnings;
  bool any_iterations = false;
  for (const StoredRun& info : runs) {
    std::map<std::int64_t, std::string> names;  // file position -> run name in the dataset
    Statement files(handle(),
                    "SELECT position, file, format, metadata FROM run_files WHERE run_id = ? ORDER BY position");
    files.bind(1, info.run_id);
    while (files.step()) {
      std::string file = files.text(1);
      // A file name another run already used is prefixed with this run's id.
      const auto [first, _] = first_run_of_file.emplace(file, info.run_id);
      std::string name = first->second == info.run_id ? file : fmt::format("{}:{}", info.run_id, file);
      out.dataset.add_run(name, files.text(3));
      if (const std::string format = files.text(2); !format.empty()) out.dataset.set_run_format(name, format);
      names[files.integer(0)] = std::move(name);
    }
    Statement rows(handle(),
                   "SELECT set_id, labels, unit, samples, iterations, direction, exact, file, metadata FROM sets"
                   " WHERE run_id = ? ORDER BY set_id");
    rows.bind(1, info.run_id);
    std::vector<std::string>& texts = out.label_texts.emplace_back();
    const std::size_t first_set = sets.size();
    std::vector<IterationCell> iteration_cells;
    while (rows.step()) {
      const std::int64_t set_id = rows.integer(0);
      check_blob(path_, rows.blob_size(3), python_type_name(rows.type(3)), set_id, "samples");
      PendingSet set;
      const std::string text = rows.text(1);
      if (std::find(texts.begin(), texts.end(), text) == texts.end()) texts.push_back(text);
      auto found = parsed.find(text);
      if (found == parsed.end()) found = parsed.emplace(text, parse_stored_labels(text, path_)).first;
      set.labels = found->second;
      set.labels.insert(set.labels.end(),
                        {{"commit", info.commit_sha}, {"branch", info.branch}, {"run", std::to_string(info.run_id)}});
      set.unit = rows.text(2);
      set.samples = std::string(rows.bytes(3));
      iteration_cells.push_back({set_id, rows.is_null(4), rows.blob_size(4), python_type_name(rows.type(4))});
      if (!rows.is_null(4)) {
        set.iterations = std::string(rows.bytes(4));
        any_iterations = true;
      }
      set.direction = rows.optional_text(5);
      set.exact = !rows.is_null(6) && rows.integer(6) != 0;
      if (!rows.is_null(7)) {
        auto name = names.find(rows.integer(7));
        if (name != names.end()) set.run = name->second;
      }
      if (const auto metadata = rows.optional_text(8); metadata && !metadata->empty()) {
        set.metadata = parse_stored_metadata(*metadata, path_);
      }
      sets.push_back(std::move(set));
    }
    if (sets.size() == first_set) continue;  // a run without sets adds no warnings either
    // Samples are all checked before iterations, so the first bad set of a column is the one named.
    for (std::size_t i = 0; i < iteration_cells.size(); ++i) {
      const IterationCell& cell = iteration_cells[i];
      if (!cell.null) {
        check_blob(path_, cell.bytes, cell.type, cell.set_id, "iterations", sets[first_set + i].samples.size());
      }
    }
    Statement run_warnings(handle(), "SELECT warnings FROM runs WHERE run_id = ?");
    run_warnings.bind(1, info.run_id);
    if (run_warnings.step() && !run_warnings.is_null(0) && !run_warnings.text(0).empty()) {
      for (auto& warning : parse_stored_strings(run_warnings.text(0), path_)) warnings.push_back(std::move(warning));
    }
  }
  std::map<std::string, Unit> units;  // a run repeats a few symbols over 10^4 sets
  std::vector<double> samples;
  std::vector<double> weights;
  for (const PendingSet& set : sets) {
    auto unit = units.find(set.unit);
    if (unit == units.end()) unit = units.emplace(set.unit, parse_unit_or_custom(set.unit)).first;
    Unit exact_unit = unit->second;
    exact_unit.exact = set.exact;
    samples.clear();
    append_float64(samples, set.samples);
    SetOptions options;
    if (set.direction) options.direction = parse_direction(*set.direction);
    options.run = set.run;
    options.metadata = set.metadata;
    if (any_iterations) {
      weights.assign(samples.size(), 1.0);
      if (set.iterations) {
        weights.clear();
        append_float64(weights, *set.iterations);
      }
      options.weights = weights;
    }
    out.dataset.add_set(set.labels, samples, exact_unit, options);
  }
  for (auto& warning : warnings) out.dataset.warn(std::move(warning));
  return out;
}

}  // namespace benchreport::store
