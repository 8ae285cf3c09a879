#include "benchreport/cli/options.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "benchreport/core/python_text.hpp"
#include "benchreport/cli/usage_error.hpp"

namespace benchreport::cli {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

// KEY=VALUE split at the first '=', both sides trimmed; nullopt without '='.
std::optional<std::pair<std::string, std::string>> key_value(std::string_view text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return std::pair{std::string(strip(text.substr(0, eq))), std::string(strip(text.substr(eq + 1)))};
}

std::string format_g(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

struct IntegerRange {
  std::string_view name;
  std::uint64_t low, high;
  std::string_view expected;
};

constexpr std::uint64_t kInt64Max = 9223372036854775807ULL;
constexpr std::uint64_t kInt32Max = 2147483647ULL;
constexpr std::array<IntegerRange, 8> kIntegerOptions{{
    {"seed", 0, ~0ULL, "a seed from 0 to 2^64-1"},
    {"budget", 0, kInt64Max, "a size in bytes, or 0 for unlimited"},
    {"resamples", 0, kInt32Max, "a count from 0 to 2^31-1"},
    {"permutations", 0, kInt32Max, "a count from 0 to 2^31-1"},
    {"k", 0, kInt32Max, "a count from 0 to 2^31-1"},
    {"size_argument", 0, kInt32Max, "an argument index from 0 to 2^31-1"},
    {"max_samples", 1, kInt64Max, "a count of samples from 1 to 2^63-1"},
    {"max_input_bytes", 1, kInt64Max, "a size in bytes from 1 to 2^63-1"},
}};

// Whether a decimal integer text lies in [low, high] (any length, any sign).
bool in_range(std::string_view decimal, std::uint64_t low, std::uint64_t high) {
  if (!decimal.empty() && decimal.front() == '-')
    return decimal.find_first_not_of("-0") == std::string_view::npos && low == 0;
  std::uint64_t value = 0;
  for (const char c : decimal) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (~0ULL - digit) / 10) return false;  // beyond 2^64-1
    value = value * 10 + digit;
  }
  return low <= value && value <= high;
}

}  // namespace

double check_fraction(double value, std::string_view option, double upper) {
  if (!(0.0 < value && value < upper))
    throw UsageError(std::string(option) + " " + repr_number(value) + ": expected a fraction between 0 and " +
                     format_g(upper) + ", e.g. 0.05 for 5%");
  return value;
}

double parse_threshold(std::string_view text) {
  const std::string_view value = strip(text);
  const bool percent = !value.empty() && value.back() == '%';
  const std::optional<double> number = parse_float(percent ? value.substr(0, value.size() - 1) : value);
  if (!number)
    throw UsageError("--threshold " + repr_text(text) +
                     ": expected a percentage such as 5% or a fraction such as 0.05");
  if (!percent && *number >= 1)
    throw UsageError("--threshold " + std::string(text) + ": a fraction must be below 1; did you mean " +
                     std::string(text) + "%?");
  return check_fraction(percent ? *number / 100.0 : *number, "--threshold", 10.0);
}

double parse_size(std::string_view text) {
  const std::optional<double> value = parse_float(text);
  if (!value) throw UsageError("--at " + repr_text(text) + ": expected a size such as 1e6");
  if (!(*value > 0)) throw UsageError("--at " + std::string(text) + ": expected a size > 0");
  return *value;
}

std::pair<std::string, std::string> parse_baseline(std::string_view text) {
  const auto pair = key_value(text);
  if (!pair || pair->first.empty() || pair->second.empty())
    throw UsageError("--baseline " + repr_text(text) + ": expected LABEL=VALUE, e.g. revision=base");
  return *pair;
}

std::vector<std::pair<std::string, std::string>> parse_key_values(const std::vector<std::string>& options,
                                                                  std::string_view option, std::string_view example) {
  std::vector<std::pair<std::string, std::string>> labels;
  for (const std::string& text : options) {
    const auto pair = key_value(text);
    if (!pair || pair->first.empty())
      throw UsageError(std::string(option) + " " + repr_text(text) + ": expected KEY=VALUE, e.g. " +
                       std::string(example));
    const auto same = std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.first == pair->first; });
    if (same != labels.end())
      same->second = pair->second;
    else
      labels.push_back(*pair);
  }
  return labels;
}

std::vector<std::pair<std::string, std::string>> parse_labels(const std::vector<std::string>& options) {
  return parse_key_values(options, "--label", "runner=ubuntu-24");
}

std::vector<std::string> split_columns(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& value : values) {
    std::string_view rest = value;
    while (true) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = strip(rest.substr(0, comma));
      if (!item.empty()) out.emplace_back(item);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return out;
}

void check_columns(const std::vector<std::string>& known, const std::vector<std::string>& columns,
                   std::string_view option) {
  std::vector<std::string> unknown;
  for (const std::string& c : columns)
    if (std::find(known.begin(), known.end(), c) == known.end()) unknown.push_back(c);
  if (unknown.empty()) return;
  const std::string hint =
      option.starts_with("--baseline")
          ? " (for files without side labels: benchreport compare OLD NEW, or --base ... --head ...)"
          : "";
  throw UsageError(std::string(option) + " " + join(unknown, ",") + ": no such label; the inputs have " +
                   (known.empty() ? std::string("no labels") : join(known, ", ")) + "; add one with --label KEY=VALUE" +
                   hint);
}

void check_integer_option(std::string_view name, std::string_view decimal) {
  for (const IntegerRange& range : kIntegerOptions) {
    if (range.name != name || in_range(decimal, range.low, range.high)) continue;
    std::string option = name == "k" ? "-k" : "--" + std::string(name);
    std::replace(option.begin() + 2, option.end(), '_', '-');
    throw UsageError(option + " " + std::string(decimal) + ": expected " + std::string(range.expected));
  }
}

}  // namespace benchreport::cli
