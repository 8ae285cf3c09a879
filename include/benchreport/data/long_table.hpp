#pragma once
// A long table (one row per sample: a value column, label columns, maybe a
// unit column; Parquet/Feather read by br.read_arrow) cut into sample sets:
// consecutive rows that agree on every label and on the unit are one set, in
// row order. The columns come dictionary-coded (Arrow's dictionary_encode), so
// rows compare as integers and each set's labels are looked up once.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

// Row i holds dictionary[codes[i]], or no value when codes[i] is -1.
struct CodedColumn {
  std::string name;
  std::span<const std::int32_t> codes;
  std::vector<std::string> dictionary;
};

// The CSR cut of the rows: set i is rows [offsets[i], offsets[i+1]) with labels[i] (the label
// columns it has a value in, in column order) and units[i].
struct LongTableSets {
  std::vector<std::int64_t> offsets{0};
  std::vector<Labels> labels;
  std::vector<std::string> units;
};

// `unit` may be null (every set in default_unit). InputError naming the column when a column's
// length is not `rows`, a code is outside its dictionary, or a unit is missing.
LongTableSets long_table_sets(std::size_t rows, std::span<const CodedColumn> labels, const CodedColumn* unit,
                              std::string_view default_unit);

}  // namespace benchreport
