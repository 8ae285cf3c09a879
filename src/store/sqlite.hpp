#pragma once
// Thin RAII over the SQLite C API for the store: one prepared statement,
// stepped row by row and finalized on every path, so that no read keeps a
// snapshot open after it (another connection of the process writes too).
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace benchreport::store {

// An error SQLite reported; its text is sqlite3_errmsg's.
class SqliteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(stmt_); }

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, double value);
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

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Runs one statement that returns no rows needed.
void execute(sqlite3* db, std::string_view sql);

// Runs `write` in BEGIN IMMEDIATE ... COMMIT: one writer at a time (others
// wait up to the busy timeout), all or nothing.
template <class Write>
void in_transaction(sqlite3* db, Write&& write) {
  execute(db, "BEGIN IMMEDIATE");
  try {
    write();
  } catch (...) {
    execute(db, "ROLLBACK");
    throw;
  }
  execute(db, "COMMIT");
}
// The first column of the first row as an integer / text.
std::int64_t query_integer(sqlite3* db, std::string_view sql);
std::string query_text(sqlite3* db, std::string_view sql);

}  // namespace benchreport::store
