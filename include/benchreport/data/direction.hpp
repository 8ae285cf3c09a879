#pragma once
// Which way is good for a sample set: shared by the Dataset (per-set
// direction), comparison verdicts and change wording in reports.
#include <cstdint>

namespace benchreport {

// Times are lower-is-better; rates (ops/s, MiB/s, IOPS) higher-is-better.
enum class Direction : std::uint8_t { lower_is_better, higher_is_better };

}  // namespace benchreport
