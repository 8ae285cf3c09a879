#pragma once
// Acknowledging a remembered change point (`benchreport ack`, docs/store.md):
// finding the change point a user names by case and commit prefix, and
// marking it acknowledged with a note.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/store/store.hpp"

namespace benchreport::store {

// One row of `change_points` a user's words may name.
struct ChangePointRow {
  std::int64_t change_id = 0;
  std::string branch;
  std::string case_key;
  std::string commit_sha;
  std::string state;
};

// Whether a case key (its labels as a JSON object) is the case `spec` names:
// `label=value[,label=value...]` (every pair equal; a label named twice, the
// last wins) or, without `=`, one label's value.
bool case_matches(std::string_view case_key, std::string_view spec);

// The change points at a commit starting with `commit_prefix` (`%` dropped,
// `_` literal) whose case matches `spec`, on `branch` when given, in table order.
std::vector<ChangePointRow> matching_change_points(const Store& store, std::string_view spec,
                                                   std::string_view commit_prefix,
                                                   const std::optional<std::string>& branch);

// Marks change point `change_id` acknowledged with `note`, stamped with the
// newest run's time (not the clock's: the same store gives the same file).
void acknowledge_change_point(const Store& store, std::int64_t change_id, std::string_view note);

}  // namespace benchreport::store
