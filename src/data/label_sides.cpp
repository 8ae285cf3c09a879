// Side and pair labels of the files of a comparison (data/label_sides.hpp).
#include "benchreport/data/label_sides.hpp"

#include <fmt/format.h>

#include <set>
#include <string>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

// How many different non-empty process labels the sets of `part` carry.
std::size_t count_processes(const Dataset& part) {
  const LabelColumn* column = part.column(kProcessLabel);
  if (column == nullptr) return 0;
  std::set<std::int32_t> seen;
  for (std::int32_t code : column->codes) {
    if (code >= 0 && !column->dictionary[static_cast<std::size_t>(code)].empty()) seen.insert(code);
  }
  return seen.size();
}

void append_labelled(Dataset& out, Dataset piece, std::string_view column, std::string_view value,
                     const std::string& pair) {
  piece.label_all({{std::string(column), std::string(value)}, {std::string(kPairLabel), pair}});
  out.append(piece);
}

void append_file(Dataset& out, const Dataset& part, std::string_view column, std::string_view value,
                 std::size_t position) {
  if (count_processes(part) <= 1) {
    append_labelled(out, part, column, value, std::to_string(position));
    return;
  }
  const std::vector<std::string> by{std::string(kProcessLabel)};
  for (const Group& group : part.group_by(by)) {
    append_labelled(out, part.subset(group.sets), column, value, fmt::format("{}.{}", position, group.key[0]));
  }
}

}  // namespace

Dataset label_sides(std::span<const Dataset* const> base, std::span<const Dataset* const> head,
                    const SideNames& names) {
  if (base.empty() || head.empty()) throw InputError("base and head need at least one input each");
  Dataset out;
  for (std::size_t i = 0; i < base.size(); ++i) append_file(out, *base[i], names.column, names.base, i + 1);
  for (std::size_t i = 0; i < head.size(); ++i) append_file(out, *head[i], names.column, names.head, i + 1);
  return out;
}

}  // namespace benchreport
