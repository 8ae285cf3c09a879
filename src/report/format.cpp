#include "benchreport/report/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "benchreport/data/display_unit.hpp"

namespace benchreport {
namespace {

std::string fixed(double value, int decimals) { return display_digits(value, decimals); }

bool is_all_zero(const std::string& digits) { return digits.find_first_not_of("0.") == std::string::npos; }

// `value` in the scale pick_scale (data/display_unit.hpp) chooses for its magnitude.
std::string format_scaled(double value, std::span<const DisplayScale> scales) {
  if (!std::isfinite(value)) return std::string(kUnavailable);
  auto [pick, digits] = pick_scale(std::fabs(value), scales);
  const bool negative = value < 0 && !is_all_zero(digits);
  if (negative) digits.insert(digits.begin(), '-');
  if (!scales[pick].attached) digits += ' ';
  digits += scales[pick].symbol;
  return digits;
}

// A number in its own unit, four significant digits, no symbol.
constexpr std::array kUnscaled{DisplayScale{1.0, "", kSignificant, true}};

// Always two decimals, so that a column of changes reads at one precision
// ("+38.00%" beside "+38.14%", not "+38%").
std::string percent_digits(double change) { return fixed(std::fabs(change) * 100.0, 2); }

}  // namespace

std::string format_time(double seconds) {
  if (!std::isfinite(seconds)) return std::string(kUnavailable);
  return format_scaled(seconds * 1e9, time_scales());
}

std::string format_change_percent(double change) {
  if (!std::isfinite(change)) return std::string(kUnavailable);
  const std::string digits = percent_digits(change);
  // A change that rounds to zero has no sign to show: "-0.00%" reads as a change that is not there.
  if (is_all_zero(digits)) return "0.00%";
  return fmt::format("{}{}%", change > 0 ? "+" : "-", digits);
}

std::string format_change_interval(double change, double lower, double upper) {
  return fmt::format("{} ({} to {})", format_change_percent(change), format_change_percent(lower),
                     format_change_percent(upper));
}

std::string format_change(double change, bool higher_is_better) {
  if (!std::isfinite(change)) return std::string(kUnavailable);
  if (is_all_zero(percent_digits(change))) return "~0% observed change";
  const bool improved = higher_is_better == (change > 0);
  const char* word = improved ? (higher_is_better ? "better" : "faster") : (higher_is_better ? "worse" : "slower");
  return fmt::format("{} {}", format_change_percent(change), word);
}

std::string format_percent(double fraction, int decimals) {
  if (!std::isfinite(fraction)) return std::string(kUnavailable);
  const std::string digits = fixed(fraction * 100.0, decimals);
  return (digits.front() == '-' && is_all_zero(digits.substr(1)) ? digits.substr(1) : digits) + "%";
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value)) return std::string(kUnavailable);
  return fixed(value, decimals);
}

std::string format_range(double low, double high, int decimals) {
  if (!std::isfinite(low) || !std::isfinite(high)) return std::string(kUnavailable);
  return fmt::format("{}\u2013{}", fixed(low, decimals), fixed(high, decimals));
}

std::string format_integer(double value, bool thousands_separator, char separator) {
  if (!std::isfinite(value)) return std::string(kUnavailable);
  std::string digits = fixed(std::fabs(value), 0);
  const bool negative = value < 0 && digits != "0";
  if (thousands_separator) {
    for (std::ptrdiff_t pos = static_cast<std::ptrdiff_t>(digits.size()) - 3; pos > 0; pos -= 3) {
      digits.insert(static_cast<std::size_t>(pos), 1, separator);
    }
  }
  return negative ? "-" + digits : digits;
}

std::string format_rate(double per_second, std::string_view unit) {
  const std::string k = fmt::format("k {}", unit);
  const std::string m = fmt::format("M {}", unit);
  const std::string g = fmt::format("G {}", unit);
  const std::array scales{DisplayScale{1.0, unit}, DisplayScale{1e3, k, kSignificant, true},
                          DisplayScale{1e6, m, kSignificant, true}, DisplayScale{1e9, g, kSignificant, true}};
  return format_scaled(per_second, scales);
}

std::string format_bytes(double bytes) { return format_scaled(bytes, byte_scales()); }

std::string format_byte_rate(double bytes_per_second) { return format_scaled(bytes_per_second, byte_rate_scales()); }

std::string format_bits(double bits_per_second) { return format_scaled(bits_per_second, bit_rate_scales()); }

std::string format_value(double base_value, const Unit& unit, const ValueStyle& style) {
  if (!std::isfinite(base_value)) return std::string(kUnavailable);
  if (unit.dimension == Dimension::time) {
    if (!style.integer_ms) return format_time(base_value);
    const std::string ms = format_integer(base_value * 1e3);
    return style.symbol == ValueStyle::Symbol::hidden ? ms : ms + " ms";
  }
  if (style.scale) {
    if (unit.dimension == Dimension::bytes) return format_bytes(base_value);
    if (unit.dimension == Dimension::rate_bytes) return format_byte_rate(base_value);
    if (unit.dimension == Dimension::rate_time) return format_rate(from_base(base_value, unit), unit.symbol);
  }
  const double own = from_base(base_value, unit);
  const std::string number = style.significant ? format_scaled(own, kUnscaled) : format_fixed(own, style.decimals);
  if (style.symbol == ValueStyle::Symbol::hidden) return number;
  if (style.symbol == ValueStyle::Symbol::shown_unless_one && unit.symbol == "1") return number;
  return fmt::format("{} {}", number, unit.symbol);
}

CellRole verdict_role(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster: return CellRole::faster;
    case Verdict::slower: return CellRole::slower;
    case Verdict::inconclusive: return CellRole::inconclusive;
    case Verdict::equivalent: return CellRole::equivalent;
    case Verdict::unchanged: return CellRole::unchanged;
    case Verdict::added:
    case Verdict::removed: return CellRole::muted;  // not a change of the code measured: no colour
  }
  return CellRole::none;
}

std::vector<double> sparkline_points(std::span<const double> samples, std::size_t width) {
  std::vector<double> finite;
  finite.reserve(samples.size());
  for (const double x : samples) {
    if (std::isfinite(x)) finite.push_back(x);
  }
  if (width == 0 || finite.size() <= width) return finite;
  std::vector<double> points(width);
  for (std::size_t i = 0; i < width; ++i) {
    const std::size_t begin = i * finite.size() / width;
    const std::size_t end = (i + 1) * finite.size() / width;
    // Terms divided first, and the result kept within the bucket's range: rounding can
    // still carry a sum of values near DBL_MAX to inf, and the true mean lies in between.
    const double count = static_cast<double>(end - begin);
    double mean = 0.0, low = finite[begin], high = finite[begin];
    for (std::size_t j = begin; j < end; ++j) {
      mean += finite[j] / count;
      low = std::min(low, finite[j]);
      high = std::max(high, finite[j]);
    }
    points[i] = std::isfinite(mean) ? std::clamp(mean, low, high) : low / 2 + high / 2;
  }
  return points;
}

std::vector<double> cell_sparkline_samples(std::span<const double> samples) {
  return sparkline_points(samples, kCellSparklinePoints);
}

std::vector<double> sparkline_levels(std::span<const double> samples, std::size_t width) {
  std::vector<double> levels = sparkline_points(samples, width);
  if (levels.empty()) return levels;
  const auto [low, high] = std::minmax_element(levels.begin(), levels.end());
  // Halved operands: high - low overflows to inf for finite values of opposite sign near DBL_MAX.
  const double half_low = *low / 2;
  const double half_span = *high / 2 - half_low;
  for (double& p : levels) {
    const double level = half_span > 0 ? (p / 2 - half_low) / half_span : 0.5;
    p = std::isfinite(level) ? std::clamp(level, 0.0, 1.0) : 0.5;
  }
  return levels;
}

std::string format_sparkline(std::span<const double> samples, std::size_t width) {
  static constexpr std::string_view kBars[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                               "\u2585", "\u2586", "\u2587", "\u2588"};
  const std::vector<double> levels = sparkline_levels(samples, width);
  // A flat series (every level 0.5) is drawn on the fourth bar; 0.5 * 7 would round up to the fifth.
  const bool flat = std::all_of(levels.begin(), levels.end(), [](double level) { return level == 0.5; });
  std::string out;
  for (const double level : levels) out += kBars[flat ? 3 : std::lround(level * 7.0)];
  return out;
}

std::string format_count(std::size_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

}  // namespace benchreport
