#pragma once
// A table split into partitions (benchreport.dask) is analysed partition by
// partition, which gives the whole table's result only when every case lies
// whole in one partition. These checks refuse the splits that would not.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

// Summary groups (`by`) must hold every case column, or one group could span
// partitions. InputError "<caller>: by must contain the case columns (...)".
// An empty `by` (one row per set) always holds whole cases.
void require_case_columns(std::span<const std::string> by, std::span<const std::string> cases, std::string_view caller);

// keys[c][r]: column c of row r, the distinct case keys of each partition
// concatenated, as text. A key seen twice is a case in two partitions: an
// InputError naming the first such key.
void refuse_split_cases(std::span<const std::string> columns, const std::vector<std::vector<std::string>>& keys);

}  // namespace benchreport
