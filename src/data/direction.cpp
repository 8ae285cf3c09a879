#include "benchreport/data/direction.hpp"

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {

Direction parse_direction(std::string_view name, std::string_view what) {
  if (name == "lower" || name == "lower_is_better") return Direction::lower_is_better;
  if (name == "higher" || name == "higher_is_better") return Direction::higher_is_better;
  throw InputError(fmt::format("{} is '{}': expected 'lower' or 'higher'", what, name));
}

std::string_view direction_name(Direction direction) {
  return direction == Direction::higher_is_better ? "higher" : "lower";
}

}  // namespace benchreport
