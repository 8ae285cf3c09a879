#pragma once
// Option values of the command line checked and parsed: each problem is a
// UsageError naming the option and the value (exit 2, one line), never a
// binding's TypeError or a statistic computed from a mistyped number.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchreport::cli {

// "5%" or "0.05" -> 0.05; a bare number of 1 or more is refused (--threshold 5
// would mean 500 %); the fraction must lie in (0, 10).
double parse_threshold(std::string_view text);

// A fraction in (0, upper), e.g. 0.05 for 5 %: returned as is.
double check_fraction(double value, std::string_view option, double upper = 1.0);

// --at: a size > 0, e.g. 1e6.
double parse_size(std::string_view text);

// --baseline LABEL=VALUE (both non-empty, trimmed).
std::pair<std::string, std::string> parse_baseline(std::string_view text);

// Repeatable KEY=VALUE options (`option`: --label, record's --env) in order,
// trimmed; a repeated key keeps its first place and takes the last value. The
// error for a malformed one shows `example`.
std::vector<std::pair<std::string, std::string>> parse_key_values(const std::vector<std::string>& options,
                                                                  std::string_view option, std::string_view example);

// --label KEY=VALUE options (parse_key_values).
std::vector<std::pair<std::string, std::string>> parse_labels(const std::vector<std::string>& options);

// Repeatable comma-separated column options as one list (empty items dropped).
std::vector<std::string> split_columns(const std::vector<std::string>& values);

// Grouping columns the inputs lack are named here, before a preset fails on
// them less clearly; a --baseline problem hints at labelling the sides.
void check_columns(const std::vector<std::string>& known, const std::vector<std::string>& columns,
                   std::string_view option);

// An integer option (`seed`, `budget`, `resamples`, `permutations`, `k`,
// `size_argument`, `max_samples`, `max_input_bytes`; others pass) given as
// its decimal text, checked against the range the core takes: C++ uint64
// seeds, 32-bit counts, byte budgets within int64.
void check_integer_option(std::string_view name, std::string_view decimal);

}  // namespace benchreport::cli
