#include "benchreport/data/display_unit.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

// Compiled: a report formats several numbers per row, and parsing the format
// string each time was most of the cost.
std::string fixed(double value, int decimals) { return fmt::format(FMT_COMPILE("{:.{}f}"), value, decimals); }

double parse(const std::string& text) {
  double value = 0.0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

std::string significant(double magnitude) {
  const int lead = magnitude > 0.0 ? static_cast<int>(std::floor(std::log10(magnitude))) : 0;  // 10^lead <= magnitude
  const int wanted = kSignificantDigits - 1 - lead;
  const int decimals = std::clamp(wanted, 0, 9);  // at most 9: tinier values show as 0.000000000
  std::string digits = fixed(magnitude, decimals);
  // Rounding up can add a digit (9.9996 -> "10.000"): one decimal fewer.
  if (decimals > 0 && decimals == wanted && parse(digits) >= std::pow(10.0, lead + 1))
    digits = fixed(magnitude, decimals - 1);
  return digits;
}

constexpr double kNsPerSecond = 1e9;

constexpr std::array kTimeScales{
    DisplayScale{1.0, "ns"}, DisplayScale{1e3, "\u00b5s"}, DisplayScale{1e6, "ms"},
    DisplayScale{1e9, "s"},  DisplayScale{60e9, "min"},    DisplayScale{3600e9, "h"},
};

constexpr double kKi = 1024.0;

constexpr std::array kByteScales{
    DisplayScale{1.0, "B", 0},
    DisplayScale{kKi, "KiB"},
    DisplayScale{kKi * kKi, "MiB"},
    DisplayScale{kKi * kKi * kKi, "GiB"},
    DisplayScale{kKi * kKi * kKi * kKi, "TiB"},
};

constexpr std::array kByteRateScales{
    DisplayScale{1.0, "B/s"},
    DisplayScale{kKi, "KiB/s"},
    DisplayScale{kKi * kKi, "MiB/s"},
    DisplayScale{kKi * kKi * kKi, "GiB/s"},
};

constexpr std::array kBitRateScales{
    DisplayScale{1.0, "bps"},
    DisplayScale{1e3, "kbps"},
    DisplayScale{1e6, "Mbps"},
    DisplayScale{1e9, "Gbps"},
};

}  // namespace

double from_base(double base_value, const Unit& unit) {
  const double guess = base_value / unit.to_base;
  if (guess * unit.to_base == base_value) return guess;
  // Division and multiplication round separately: a neighbour may map back exactly.
  for (const double candidate : {std::nextafter(guess, INFINITY), std::nextafter(guess, -INFINITY)}) {
    if (candidate * unit.to_base == base_value) return candidate;
  }
  return guess;
}

std::string display_digits(double value, int decimals) {
  return decimals == kSignificant ? significant(value) : fixed(value, decimals);
}

std::span<const DisplayScale> time_scales() noexcept { return kTimeScales; }
std::span<const DisplayScale> byte_scales() noexcept { return kByteScales; }
std::span<const DisplayScale> byte_rate_scales() noexcept { return kByteRateScales; }
std::span<const DisplayScale> bit_rate_scales() noexcept { return kBitRateScales; }

ScaledDigits pick_scale(double magnitude, std::span<const DisplayScale> scales) {
  ScaledDigits out;
  for (std::size_t i = 0; i < scales.size(); ++i) {
    out.scale = i;
    const double in_unit = magnitude / scales[i].factor;
    out.digits = display_digits(i == 0 ? in_unit : std::max(in_unit, 1.0), scales[i].decimals);
    const bool last = i + 1 == scales.size();
    if (last || parse(out.digits) * scales[i].factor < scales[i + 1].factor) break;
  }
  return out;
}

DisplayUnit display_unit(double base_value, const Unit& unit) {
  if (unit.dimension != Dimension::time) return {unit.symbol, unit.to_base};
  if (!std::isfinite(base_value)) return {std::string(base_symbol(Dimension::time)), 1.0};
  const DisplayScale& scale = kTimeScales[pick_scale(std::fabs(base_value) * kNsPerSecond, kTimeScales).scale];
  return {std::string(scale.symbol), scale.factor / kNsPerSecond};
}

PlotScale display_scale(double typical, std::string_view unit) {
  if (unit.empty()) return {1.0, {}};
  Unit parsed;
  try {
    parsed = parse_unit(unit);
  } catch (const InputError&) {  // not a unit benchreport scales: drawn as given
    return {1.0, std::string(unit)};
  }
  const DisplayUnit shown = display_unit(typical * parsed.to_base, parsed);
  return {parsed.to_base / shown.base_per_unit, shown.symbol};
}

}  // namespace benchreport
