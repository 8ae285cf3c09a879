#include "store/sqlite.hpp"

namespace benchreport::store {

StoreError sqlite_error(sqlite3* db) {
  const char* file = sqlite3_db_filename(db, "main");
  return StoreError(file != nullptr ? file : "", sqlite3_errmsg(db));
}

void rollback(sqlite3* db) noexcept {
  if (sqlite3_get_autocommit(db) == 0) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
    throw sqlite_error(db);
  }
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) throw sqlite_error(db_);
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK) {
    throw sqlite_error(db_);
  }
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) throw sqlite_error(db_);
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  // A zero-length blob is still a blob (a null pointer would bind NULL).
  static const char empty = 0;
  const char* data = bytes.empty() ? &empty : bytes.data();
  if (sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK) throw sqlite_error(db_);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw sqlite_error(db_);
}

std::string Statement::text(int column) const { return std::string(bytes(column)); }

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

std::string_view Statement::bytes(int column) const {
  const int type = sqlite3_column_type(stmt_, column);
  const void* data = type == SQLITE_BLOB ? sqlite3_column_blob(stmt_, column)
                                         : static_cast<const void*>(sqlite3_column_text(stmt_, column));
  const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column));
  return data == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(data), size);
}

std::string_view python_type_name(int sqlite_type) {
  switch (sqlite_type) {
    case SQLITE_INTEGER: return "int";
    case SQLITE_FLOAT: return "float";
    case SQLITE_TEXT: return "str";
    case SQLITE_NULL: return "NoneType";
    default: return "bytes";
  }
}

void execute(sqlite3* db, std::string_view sql) {
  Statement statement(db, sql);
  while (statement.step()) {
  }
}

std::int64_t query_integer(sqlite3* db, std::string_view sql) {
  Statement statement(db, sql);
  return statement.step() ? statement.integer(0) : 0;
}

std::string query_text(sqlite3* db, std::string_view sql) {
  Statement statement(db, sql);
  return statement.step() ? statement.text(0) : std::string();
}

}  // namespace benchreport::store
