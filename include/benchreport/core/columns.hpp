#pragma once
// A result's columnar view: named columns of one kind each, one entry per row, in
// the order the result's field list defines them. Python sees it as a dict of
// numpy arrays (result.columns()), and pandas as DataFrame(result.columns()).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

enum class ColumnKind : std::uint8_t { real, count, flag, text };

struct DataColumn {
  std::string name;
  ColumnKind kind = ColumnKind::real;
  std::vector<double> reals;         // real
  std::vector<std::int64_t> counts;  // count, flag (0 or 1)
  std::vector<std::string> texts;    // text
};

// Rows are appended field by field, every row naming the same fields in the same order:
// the first row makes the columns, later rows fill them by position. A result with no
// rows visits one placeholder row and drops it (drop_rows): the names and kinds stay.
class Columns {
 public:
  void begin_row() {
    cursor_ = 0;
    ++rows_;
  }
  void add(std::string_view name, double value) { at(name, ColumnKind::real).reals.push_back(value); }
  void add(std::string_view name, std::size_t value) {
    at(name, ColumnKind::count).counts.push_back(static_cast<std::int64_t>(value));
  }
  void add(std::string_view name, bool value) { at(name, ColumnKind::flag).counts.push_back(value ? 1 : 0); }
  void add(std::string_view name, std::string value) { at(name, ColumnKind::text).texts.push_back(std::move(value)); }

  void drop_rows() {
    for (auto& c : columns_) {
      c.reals.clear();
      c.counts.clear();
      c.texts.clear();
    }
    rows_ = 0;
  }

  const std::vector<DataColumn>& columns() const noexcept { return columns_; }
  std::vector<DataColumn>& columns() noexcept { return columns_; }
  std::size_t rows() const noexcept { return rows_; }

 private:
  DataColumn& at(std::string_view name, ColumnKind kind) {
    if (cursor_ == columns_.size()) columns_.push_back(DataColumn{std::string(name), kind, {}, {}, {}});
    return columns_[cursor_++];
  }

  std::vector<DataColumn> columns_;
  std::size_t cursor_ = 0;
  std::size_t rows_ = 0;
};

}  // namespace benchreport
