#pragma once
// Values shown in a unit: converted back from base units to the unit they
// were read in, or in the display unit chosen by magnitude, with the digits
// shown. One choice that report text (report/format.hpp), Python tables
// (to_pandas) and outputs in a tool's own unit (Bencher's BMF) share.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "benchreport/data/units.hpp"

namespace benchreport {

// A value in base units converted back to `unit`, chosen so that converting
// it to base units again gives exactly `base_value` whenever such a double exists.
double from_base(double base_value, const Unit& unit);

// A displayed number has `decimals` fixed decimals, or, when decimals is
// kSignificant, kSignificantDigits significant digits.
inline constexpr int kSignificant = -1;
inline constexpr int kSignificantDigits = 4;

// `value` with fixed decimals ("45851.10"); with kSignificant (for a magnitude,
// >= 0) four significant digits, trailing zeros kept ("1.600", "400.0",
// "0.5000"), never fewer than the integer part ("12345"), at most 9 decimals.
std::string display_digits(double value, int decimals);

// One unit of a scaled display: a value given in the scale's first unit is
// shown as value / factor with `decimals`, then the symbol (after a space,
// or right after the digits when `attached`, as in "45.85k ops/s").
struct DisplayScale {
  double factor;
  std::string_view symbol;
  int decimals = kSignificant;
  bool attached = false;
};

// The scales of times (ns, µs, ms, s, min, h; factors in nanoseconds), sizes
// (whole B, then KiB … TiB), byte rates (B/s … GiB/s) and bit rates (bps … Gbps).
std::span<const DisplayScale> time_scales() noexcept;
std::span<const DisplayScale> byte_scales() noexcept;
std::span<const DisplayScale> byte_rate_scales() noexcept;
std::span<const DisplayScale> bit_rate_scales() noexcept;

// The scale a magnitude (>= 0, in the first scale's unit) is shown in, and its
// digits there. Picked after rounding, so a value that rounds up to the next
// scale's threshold (999.96 ns -> "1000") moves to that scale ("1.000 µs"). A
// scale above the first is reached only at 1 or more of it after rounding, so
// the value shown there is at least 1 (59.996 s -> "1.000 min", not "0.9999 min").
struct ScaledDigits {
  std::size_t scale = 0;
  std::string digits;
};
ScaledDigits pick_scale(double magnitude, std::span<const DisplayScale> scales);

// The unit a value in base units of `unit` is shown in, and the base units in
// one of it: a time by its magnitude as report/format.hpp's format_time picks
// it (ns, µs, ms, s, min, h), in seconds when it is not finite; any other unit
// is its own (unit.symbol, unit.to_base).
struct DisplayUnit {
  std::string symbol;
  double base_per_unit = 1.0;
};
DisplayUnit display_unit(double base_value, const Unit& unit);

// How values given in `unit` (a symbol, as parse_unit reads it) are drawn in the unit the reports
// would show `typical` (in `unit`, e.g. the values' median) in: value × factor, labelled `symbol`.
// Seconds around 1.974e-05 are drawn ×1e6 as µs. An empty or unknown unit is kept (factor 1), so
// a plot of any numbers still draws. One choice for every plot axis (Python's benchreport.plot).
struct PlotScale {
  double factor = 1.0;
  std::string symbol;
};
PlotScale display_scale(double typical, std::string_view unit);

}  // namespace benchreport
