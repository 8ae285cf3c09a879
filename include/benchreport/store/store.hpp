#pragma once
// A results store: runs of benchmark samples kept in one SQLite file
// (docs/store.md). This is the store's connection: opening (creating the
// schema, migrating older versions forward), listing runs and reading them
// back as one Dataset.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/store/run_rows.hpp"

struct sqlite3;

namespace benchreport::store {

inline constexpr int kSchemaVersion = 2;                    // PRAGMA user_version written
inline constexpr std::int64_t kApplicationId = 0x62525354;  // PRAGMA application_id, "bRST" (v1 files may carry 0)
inline constexpr int kCacheKib = 65536;                     // page cache of a connection
inline constexpr double kDefaultBusyTimeout = 600.0;        // seconds a writer waits for another's transaction
using benchreport::kStoreLabels;                            // data/label_roles.hpp

// An SQLite failure on a store file (busy, locked, full, closed, I/O): the
// file's path, then what went wrong. Python sees benchreport.store.StoreError,
// a sqlite3.OperationalError.
class StoreError : public std::runtime_error {
 public:
  StoreError(const std::string& path, const std::string& message)
      : std::runtime_error(path.empty() ? message : path + ": " + message), message_(message) {}
  // What went wrong, without the path.
  const std::string& message() const noexcept { return message_; }

 private:
  std::string message_;
};

// One row of `runs` with its environment's JSON (none for version 1 runs).
struct StoredRun {
  std::int64_t run_id = 0;
  std::string commit_sha;
  std::string branch;
  std::string time;
  std::int64_t seq = 0;
  std::optional<std::string> tool;
  std::optional<std::string> source;
  std::optional<std::string> environment_json;
};

// What read_runs gives: the sets of the runs as one Dataset, and per run its
// distinct label texts as stored, in order of first appearance.
struct ReadRuns {
  Dataset dataset;
  std::vector<std::vector<std::string>> label_texts;
};

class Store {
 public:
  // Opens (with `create`, makes) the store at `path` and migrates an older
  // schema forward. InputError when the file is not a benchreport store, is
  // newer than this benchreport reads, or is missing and `create` is false.
  static Store open(const std::string& path, bool create = true, double busy_timeout = kDefaultBusyTimeout);

  Store(Store&& other) noexcept;
  Store& operator=(Store&& other) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  ~Store();

  const std::string& path() const noexcept { return path_; }
  bool is_open() const noexcept { return db_ != nullptr; }
  void close() noexcept;
  int schema_version() const;
  // The SQLite connection, for the store's other concepts (store/acknowledge.hpp):
  // every read and write of the file goes through it. StoreError once closed.
  sqlite3* handle() const;

  // Runs by branch, seq and id; only `branch`'s when given.
  std::vector<StoredRun> runs(const std::optional<std::string>& branch = std::nullopt) const;
  // One run by id; InputError "<path>: no run <id>" when there is none.
  StoredRun run(std::int64_t run_id) const;
  // The sets of `runs` (in that order, sets in recorded order) with the
  // labels commit, branch and run added; samples, iterations, units,
  // directions and metadata exactly as recorded. A damaged blob is an
  // InputError naming the file, the set and the column.
  ReadRuns read_runs(std::span<const StoredRun> runs) const;

 private:
  Store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  void prepare();
  int check_version() const;

  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace benchreport::store
