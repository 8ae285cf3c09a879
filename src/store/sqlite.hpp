#pragma once
// Thin RAII over the SQLite C API for the store: one prepared statement,
// stepped row by row and finalized on every path, so that no read keeps a
// snapshot open after it (an open read snapshot holds back the WAL checkpoint
// and other processes' writers).
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "benchreport/store/store.hpp"

namespace benchreport::store {

// An error SQLite reported: the database file and sqlite3_errmsg's text.
using SqliteError = StoreError;
// The error SQLite last reported on `db`, naming its file.
StoreError sqlite_error(sqlite3* db);

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(stmt_); }

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, double value);
  Statement& bind_blob(int index, std::string_view bytes);
  // true while there is a row; false once the statement is done.
  bool step();
  // Ready to step again from the start with new bindings.
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  bool is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  int type(int column) const { return sqlite3_column_type(stmt_, column); }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  double real(int column) const { return sqlite3_column_double(stmt_, column); }
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  // The cell's bytes (a blob's, or a text's): a view valid until the next step.
  std::string_view bytes(int column) const;
  // A blob's size; none when the cell is not a blob.
  std::optional<std::size_t> blob_size(int column) const {
    if (type(column) != SQLITE_BLOB) return std::nullopt;
    return bytes(column).size();
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// What Python calls a cell of this SQLite type, for messages about a cell
// that is not what it should be.
std::string_view python_type_name(int sqlite_type);

// Runs one statement that returns no rows needed.
void execute(sqlite3* db, std::string_view sql);

// Rolls back the open transaction, if any (SQLite may have ended it after an
// error already); never throws, so the error that led here is the one seen.
void rollback(sqlite3* db) noexcept;

// Runs `write` in BEGIN IMMEDIATE ... COMMIT: one writer at a time (others
// wait up to the busy timeout), all or nothing. A failure in `write` or in
// the COMMIT rolls back and is rethrown as it was.
template <class Write>
void in_transaction(sqlite3* db, Write&& write) {
  execute(db, "BEGIN IMMEDIATE");
  try {
    write();
    execute(db, "COMMIT");
  } catch (...) {
    rollback(db);
    throw;
  }
}
// The first column of the first row as an integer / text.
std::int64_t query_integer(sqlite3* db, std::string_view sql);
std::string query_text(sqlite3* db, std::string_view sql);

}  // namespace benchreport::store
