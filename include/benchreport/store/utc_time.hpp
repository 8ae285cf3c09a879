#pragma once
// A run's time as the store keeps it: ISO-8601 UTC, YYYY-MM-DDTHH:MM:SS[.ffffff]Z.
#include <optional>
#include <string>
#include <string_view>

namespace benchreport::store {

// `text` (an ISO-8601 date and time as Python's datetime.fromisoformat reads
// it; Z, z or an offset; a time without zone is UTC) in UTC, fractions kept
// without trailing zeros; the current second when `text` is none. InputError
// for anything else.
std::string utc_time(const std::optional<std::string>& text);

}  // namespace benchreport::store
