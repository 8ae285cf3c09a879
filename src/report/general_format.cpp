#include "benchreport/report/general_format.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <utility>

namespace benchreport {

std::string format_general(double value, int digits) {
  // fmt prints a NaN with its sign bit as "-nan"; Python's formats never do.
  return std::isnan(value) ? "nan" : fmt::format("{:.{}g}", value, digits);
}

std::string human_number(double value) {
  static constexpr std::array<std::pair<double, const char*>, 4> kSuffixes{
      {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  if (value == 0 || !std::isfinite(value)) return format_general(value);
  for (const auto& [scale, suffix] : kSuffixes) {
    if (std::fabs(value) >= scale) return format_general(value / scale, 3) + suffix;
  }
  return format_general(value, 3);
}

std::string value_with_unit(double value, std::string_view unit) {
  std::string text = format_general(value, 4);
  if (!unit.empty()) text += fmt::format(" {}", unit);
  return text;
}

}  // namespace benchreport
