#include "benchreport/data/whole_cases.hpp"

#include <algorithm>
#include <set>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

std::string joined(std::span<const std::string> parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : std::string(separator)) + p;
  return out;
}

}  // namespace

void require_case_columns(std::span<const std::string> by, std::span<const std::string> cases,
                          std::string_view caller) {
  if (by.empty()) return;
  std::vector<std::string> missing;
  for (const auto& c : cases) {
    if (std::find(by.begin(), by.end(), c) == by.end()) missing.push_back(c);
  }
  if (!missing.empty()) {
    throw InputError(std::string(caller) + ": by must contain the case columns (" + joined(missing, ", ") +
                     " missing)");
  }
}

void refuse_split_cases(std::span<const std::string> columns, const std::vector<std::vector<std::string>>& keys) {
  if (keys.size() != columns.size()) throw InputError("case keys: one column of keys per case column");
  const std::size_t rows = keys.empty() ? 0 : keys.front().size();
  std::set<std::vector<std::string>> seen;
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<std::string> key;
    for (const auto& column : keys) key.push_back(column.at(r));
    if (seen.insert(key).second) continue;
    std::vector<std::string> named;
    for (std::size_t c = 0; c < columns.size(); ++c) named.push_back(columns[c] + "=" + key[c]);
    throw InputError("case " + joined(named, ", ") +
                     " is split across partitions; write each case to its own files (partition the Parquet by " +
                     joined(columns, ", ") + ") and read them with read_parquet");
  }
}

}  // namespace benchreport
