#pragma once
// Which way is good for a sample set: shared by the Dataset (per-set
// direction), comparison verdicts and change wording in reports.
#include <cstdint>
#include <string_view>

namespace benchreport {

// Times are lower-is-better; rates (ops/s, MiB/s, IOPS) higher-is-better.
enum class Direction : std::uint8_t { lower_is_better, higher_is_better };

// "lower" or "higher" (also spelled "lower_is_better" / "higher_is_better"); anything else is an
// InputError that names `what` (the argument or field the text came from).
Direction parse_direction(std::string_view name, std::string_view what = "direction");

// The short name parse_direction reads back: "lower" or "higher".
std::string_view direction_name(Direction direction);

}  // namespace benchreport
