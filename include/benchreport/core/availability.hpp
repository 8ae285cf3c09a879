#pragma once
// Whether an optional statistic could be computed, and why not.
#include <string>

namespace benchreport {

// Too few samples (or a degenerate set) is not an error: the field says
// "unavailable" and carries a human-readable reason.
struct Availability {
  bool ok = false;
  std::string reason = "not computed";

  static Availability available() { return {true, {}}; }
  static Availability unavailable(std::string why) { return {false, std::move(why)}; }
};

}  // namespace benchreport
