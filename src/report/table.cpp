#include "benchreport/report/table.hpp"

#include <array>
#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

constexpr std::array<std::string_view, 10> kRoleNames{"none",      "faster", "slower", "inconclusive", "equivalent",
                                                      "unchanged", "best",   "worse",  "muted",        "code"};
constexpr std::array<std::string_view, 3> kAlignNames{"left", "right", "center"};

template <typename Enum, std::size_t N>
Enum enum_from_name(const std::array<std::string_view, N>& names, std::string_view name, const char* what) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  throw InputError(fmt::format("unknown {} '{}': expected one of {}", what, name, fmt::join(names, ", ")));
}

}  // namespace

std::string_view role_name(CellRole role) { return kRoleNames.at(static_cast<std::size_t>(role)); }

CellRole role_from_name(std::string_view name) { return enum_from_name<CellRole>(kRoleNames, name, "cell role"); }

std::string_view align_name(Align align) { return kAlignNames.at(static_cast<std::size_t>(align)); }

Align align_from_name(std::string_view name) { return enum_from_name<Align>(kAlignNames, name, "alignment"); }

std::string Table::display_name() const {
  if (!caption.empty()) return fmt::format("table '{}'", caption);
  if (!id.empty()) return fmt::format("table '{}'", id);
  return "table";
}

Table& Table::add_row(std::vector<Cell> cells) {
  if (cells.size() != columns.size()) {
    throw InputError(fmt::format("{} row {}: {} cells, expected {} (one per column)", display_name(), rows.size() + 1,
                                 cells.size(), columns.size()));
  }
  rows.push_back(std::move(cells));
  return *this;
}

void Table::validate() const {
  if (columns.empty()) throw InputError(fmt::format("{}: no columns", display_name()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != columns.size()) {
      throw InputError(fmt::format("{} row {}: {} cells, expected {} (one per column)", display_name(), r + 1,
                                   rows[r].size(), columns.size()));
    }
  }
}

}  // namespace benchreport
