// Commit labels of the parts of a history (data/label_commits.hpp).
#include "benchreport/data/label_commits.hpp"

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

bool labelled_throughout(const Dataset& part, std::string_view column) {
  if (part.column(column) == nullptr) return false;
  for (std::size_t set = 0; set < part.n_sets(); ++set) {
    if (!part.has_label(set, column)) return false;
  }
  return true;
}

}  // namespace

Dataset label_commits(std::span<const Dataset* const> parts, std::span<const std::string> names,
                      std::string_view column) {
  if (parts.empty()) throw InputError("history: no inputs");
  if (names.size() != parts.size())
    throw InputError(fmt::format("history: {} names for {} inputs", names.size(), parts.size()));
  Dataset out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (labelled_throughout(*parts[i], column)) {
      out.append(*parts[i]);
      continue;
    }
    Dataset labelled(*parts[i]);
    labelled.label_all({{std::string(column), names[i]}});
    out.append(labelled);
  }
  return out;
}

}  // namespace benchreport
