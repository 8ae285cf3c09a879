#pragma once
// Number and unit formatting for reports (docs/reports.md, "Formatting").
// Every function is locale-independent and deterministic (fmt, not iostreams),
// and returns kUnavailable for NaN/±inf instead of printing "nan".
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/report/table.hpp"

namespace benchreport {

// Shown wherever a value is unavailable (U+2014 EM DASH).
inline constexpr std::string_view kUnavailable = "\u2014";

// Scaled quantities (times, rates, sizes above bytes, bit rates) all read at
// one precision: four significant digits in the unit that puts the value in
// [1, 1000), trailing zeros kept. The unit and the digits are picked after
// rounding, so 999.96 ns prints "1.000 µs" and 9.9996 ns "10.00 ns".

// Time given in seconds: "851.2 ns", "2.250 µs" (U+00B5), "1.600 ms",
// "1.500 s", "2.500 min", "1.250 h"; below 1 ns "0.3000 ns".
std::string format_time(double seconds);

// Relative change (0.6003 = +60.03 %) with two decimals, always (one precision
// per column): "+60.03% slower", "-9.50% faster"; a change that rounds to 0.00% reads "~0% observed change".
// Words: lower-is-better (times) "faster"/"slower"; higher-is-better (rates)
// "better"/"worse".
std::string format_change(double change, bool higher_is_better = false);

inline std::string format_change(double change, Direction direction) {
  return format_change(change, direction == Direction::higher_is_better);
}

// Signed percentage of a relative change without the word: "+60.03%", "-9.50%", "0.00%" (never "-0.00%").
std::string format_change_percent(double change);

// A change with its interval: "+1.20% (-0.40% to +2.90%)".
std::string format_change_interval(double change, double lower, double upper);

// Fraction as a percentage with fixed decimals: format_percent(0.024, 1) = "2.4%".
std::string format_percent(double fraction, int decimals = 1);

// Fixed decimals: format_fixed(45851.1) = "45851.10".
std::string format_fixed(double value, int decimals = 2);

// En-dash range of two fixed-decimal values: "42062.37–51322.25".
std::string format_range(double low, double high, int decimals = 2);

// "1 commit", "6 commits": a count and its noun, plural unless the count is 1.
std::string format_count(std::size_t n, std::string_view singular, std::string_view plural);

// Rounded integer, optionally with a thousands separator: 81920 -> "81,920".
std::string format_integer(double value, bool thousands_separator = false, char separator = ',');

// Rate with SI scaling (k, M, G): format_rate(45851.1, "ops/s") = "45.85k ops/s";
// below 1000 "512.0 ops/s".
std::string format_rate(double per_second, std::string_view unit = "ops/s");

// Size with binary scaling: whole bytes "512 B", then "1.500 KiB", "512.0 MiB", "2.000 GiB".
std::string format_bytes(double bytes);

// Throughput with binary scaling: "94.70 MiB/s" (bytes per second in).
std::string format_byte_rate(double bytes_per_second);

// Bit rate with decimal scaling: "273.7 Mbps" (bits per second in).
std::string format_bits(double bits_per_second);

// How format_value shows a value given in its set's base unit; the presets
// differ only in these choices (comparison: 4 significant digits in the set's
// unit; summary, history, scaling: sizes and rates scaled, other units with
// 4 significant digits; matrix: fixed decimals with the unit in the header,
// or whole ms, so that a row's cells line up).
struct ValueStyle {
  enum class Symbol : std::uint8_t {
    hidden,            // the number alone (the unit is in the column header)
    shown,             // " <symbol>" after the number (" ms" after whole milliseconds)
    shown_unless_one,  // as shown, but never the dimensionless "1"
  };
  // Times as whole milliseconds ("224") instead of format_time ("851.2 ns", "1.600 ms").
  bool integer_ms = false;
  // Sizes, byte rates and rates scaled as format_bytes / format_byte_rate / format_rate
  // ("1.500 KiB", "94.70 MiB/s", "45.85k ops/s") instead of a number in the set's unit.
  bool scale = false;
  // A number in the set's unit: `decimals` fixed decimals ("45851.10"), or
  // when `significant`, four significant digits as times have ("2.554",
  // "3.000", "23456": trailing zeros kept, never an exponent).
  int decimals = 2;
  bool significant = false;
  Symbol symbol = Symbol::shown;
};

// A value given in base units (seconds, bytes, ops/s, ...) as text in its
// unit: times by format_time unless `style.integer_ms`; kUnavailable for NaN/±inf.
std::string format_value(double base_value, const Unit& unit, const ValueStyle& style = {});

// How a verdict is coloured in tables (the role of its cells).
CellRole verdict_role(Verdict verdict);

// Samples reduced to at most `width` points in measurement order (bucket
// means; non-finite samples skipped), for sparklines.
std::vector<double> sparkline_points(std::span<const double> samples, std::size_t width);

// Most points a preset keeps in a cell for its sparkline: 4 000 = 16 × 250 = 40 × 100,
// so the Markdown/text (16) and HTML (40) sparklines drawn from the kept points
// bucket exactly the samples they would bucket from all of them.
inline constexpr std::size_t kCellSparklinePoints = 4000;
inline constexpr std::size_t kSparklineWidth = 16;  // Markdown and text sparklines
static_assert(kCellSparklinePoints % kSparklineWidth == 0);

// What a preset's cell keeps to draw a sample sparkline: the finite samples
// themselves up to kCellSparklinePoints, else that many bucket means. Keeps a
// report of 10^6-sample cases small (the statistics are in the report's data).
std::vector<double> cell_sparkline_samples(std::span<const double> samples);

// sparkline_points scaled to [0, 1] between their minimum and maximum (all 0.5
// when flat); overflow-safe for any finite input, so never NaN.
std::vector<double> sparkline_levels(std::span<const double> samples, std::size_t width);

// Unicode block sparkline ("▁▃█▅", U+2581–U+2588) of at most `width` characters,
// scaled between the smallest and largest point; flat data draws "▄"; no finite samples draw "".
std::string format_sparkline(std::span<const double> samples, std::size_t width = kSparklineWidth);

}  // namespace benchreport
