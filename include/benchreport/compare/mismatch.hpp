#pragma once
// Why the cases of base and head did not match: the cases found on one side
// only, the nearest name on the other side, and the option that fixes it.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace benchreport {

struct NearMatch {
  std::vector<std::string> base, head;  // case keys
  double distance = 0;                  // normalized edit distance of the joined keys
};

// For each base-only case, the head-only case nearest by normalized edit
// distance of the joined keys; sorted by distance, at most `limit`.
std::vector<NearMatch> nearest_matches(const std::vector<std::vector<std::string>>& base_only,
                                       const std::vector<std::vector<std::string>>& head_only, std::size_t limit);

struct MismatchContext {
  std::vector<std::string> by;                                 // the case columns
  std::vector<std::vector<std::string>> base_only, head_only;  // case keys
  std::string side_column, base_value, head_value;
  std::set<std::string> formats;  // the readers of the compared sets ("hyperfine", "go", ...)
};

// The message of the refusal when no case has sets on both sides: the cases
// of each side, the nearest matches, and the fix (--by, hyperfine -n, Go's -cpu).
std::string explain_no_match(const MismatchContext& context);

}  // namespace benchreport
