// Sample sets of a long table (data/long_table.hpp).
#include "benchreport/data/long_table.hpp"

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

void check_column(const CodedColumn& column, std::size_t rows) {
  if (column.codes.size() != rows)
    throw InputError(
        fmt::format("column {}: {} rows, the value column has {}", column.name, column.codes.size(), rows));
  for (std::size_t i = 0; i < rows; ++i) {
    const std::int32_t code = column.codes[i];
    if (code < -1 || (code >= 0 && static_cast<std::size_t>(code) >= column.dictionary.size()))
      throw InputError(fmt::format("column {}, row {}: code {} outside its dictionary", column.name, i, code));
  }
}

// Whether row i starts a new set: its code differs from row i-1's in some column.
bool starts_set(std::span<const CodedColumn> labels, const CodedColumn* unit, std::size_t i) {
  for (const CodedColumn& c : labels) {
    if (c.codes[i] != c.codes[i - 1]) return true;
  }
  return unit != nullptr && unit->codes[i] != unit->codes[i - 1];
}

void add_set(LongTableSets& out, std::span<const CodedColumn> labels, const CodedColumn* unit,
             std::string_view default_unit, std::size_t first) {
  Labels& set = out.labels.emplace_back();
  for (const CodedColumn& c : labels) {
    if (const std::int32_t code = c.codes[first]; code >= 0)
      set.emplace_back(c.name, c.dictionary[static_cast<std::size_t>(code)]);
  }
  if (unit == nullptr) {
    out.units.emplace_back(default_unit);
  } else if (const std::int32_t code = unit->codes[first]; code >= 0) {
    out.units.push_back(unit->dictionary[static_cast<std::size_t>(code)]);
  } else {
    throw InputError(fmt::format("column {}, row {}: no unit", unit->name, first));
  }
}

}  // namespace

LongTableSets long_table_sets(std::size_t rows, std::span<const CodedColumn> labels, const CodedColumn* unit,
                              std::string_view default_unit) {
  for (const CodedColumn& c : labels) check_column(c, rows);
  if (unit != nullptr) check_column(*unit, rows);
  LongTableSets out;
  for (std::size_t i = 0; i < rows; ++i) {
    if (i == 0 || starts_set(labels, unit, i)) {
      if (i > 0) out.offsets.push_back(static_cast<std::int64_t>(i));
      add_set(out, labels, unit, default_unit, i);
    }
  }
  if (rows > 0) out.offsets.push_back(static_cast<std::int64_t>(rows));
  return out;
}

}  // namespace benchreport
