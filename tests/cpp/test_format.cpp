#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "benchreport/data/units.hpp"
#include "benchreport/report/format.hpp"

using namespace benchreport;

namespace {
constexpr double kNs = 1e-9;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("format_time: four significant digits in the unit that puts the value between 1 and 1000", "[format]") {
  CHECK(format_time(851.2 * kNs) == "851.2 ns");
  CHECK(format_time(2.25e3 * kNs) == "2.250 \u00b5s");
  CHECK(format_time(54.80e3 * kNs) == "54.80 \u00b5s");
  CHECK(format_time(299.84e3 * kNs) == "299.8 \u00b5s");
  CHECK(format_time(1.60e6 * kNs) == "1.600 ms");
  CHECK(format_time(22.9 * kNs) == "22.90 ns");
  // The mixed-precision trio now reads at one precision.
  CHECK(format_time(100.0 * kNs) == "100.0 ns");
  CHECK(format_time(0.4) == "400.0 ms");
  CHECK(format_time(1.0) == "1.000 s");
  CHECK(format_time(0.3 * kNs) == "0.3000 ns");
}

TEST_CASE("format_time unit boundaries and digits are decided after rounding", "[format]") {
  CHECK(format_time(999.94 * kNs) == "999.9 ns");
  CHECK(format_time(999.96 * kNs) == "1.000 \u00b5s");
  CHECK(format_time(1000 * kNs) == "1.000 \u00b5s");
  CHECK(format_time(9.9996 * kNs) == "10.00 ns");
  CHECK(format_time(99.996e3 * kNs) == "100.0 \u00b5s");
  CHECK(format_time(999.96e3 * kNs) == "1.000 ms");
  CHECK(format_time(1.5) == "1.500 s");
  CHECK(format_time(59.994) == "59.99 s");
  CHECK(format_time(59.996) == "1.000 min");
  CHECK(format_time(150.0) == "2.500 min");
  CHECK(format_time(4500.0) == "1.250 h");
  CHECK(format_time(12345.0 * 3600.0) == "12345 h");
  CHECK(format_time(0.0) == "0.000 ns");
  CHECK(format_time(-851.2 * kNs) == "-851.2 ns");
  CHECK(format_time(-0.00001 * kNs) == "-0.00001000 ns");
  CHECK(format_time(-1e-12 * kNs) == "0.000000000 ns");
  CHECK(format_time(7.08e-10 * kNs) == "0.000000001 ns");  // nine decimals at most, no carry step
}

TEST_CASE("non-finite values print the unavailable dash", "[format]") {
  CHECK(format_time(kNaN) == "\u2014");
  CHECK(format_time(kInf) == "\u2014");
  CHECK(format_change(kNaN) == "\u2014");
  CHECK(format_percent(-kInf) == "\u2014");
  CHECK(format_fixed(kNaN) == "\u2014");
  CHECK(format_range(1.0, kNaN) == "\u2014");
  CHECK(format_integer(kNaN) == "\u2014");
  CHECK(format_rate(kNaN) == "\u2014");
  CHECK(format_bytes(kInf) == "\u2014");
  CHECK(format_bits(kNaN) == "\u2014");
  CHECK(kUnavailable == "\u2014");
}

TEST_CASE("format_change: two decimals always, one precision per column", "[format]") {
  CHECK(format_change(0.6003) == "+60.03% slower");
  CHECK(format_change(-0.095) == "-9.50% faster");
  CHECK(format_change(-0.0056) == "-0.56% faster");
  CHECK(format_change(-0.0501) == "-5.01% faster");
  CHECK(format_change(0.0014) == "+0.14% slower");
  CHECK(format_change(-0.008) == "-0.80% faster");
  CHECK(format_change(0.10) == "+10.00% slower");
  CHECK(format_change(-0.0001) == "-0.01% faster");
  CHECK(format_change(0.0) == "~0% observed change");
  CHECK(format_change(-0.0) == "~0% observed change");
  // Non-zero but below 0.005 %: rounds to zero, so no sign and no word ("-0.00%" shows a change that is not there).
  CHECK(format_change(0.00001) == "~0% observed change");
  CHECK(format_change(-0.00001) == "~0% observed change");
  CHECK(format_change(-0.00005) == "-0.01% faster");
  CHECK(format_change_percent(-0.00001) == "0.00%");
  CHECK(format_change_percent(0.00001) == "0.00%");
  CHECK(format_percent(-0.00001, 2) == "0.00%");
  CHECK(format_percent(-0.0001, 2) == "-0.01%");
  CHECK(format_change_interval(0.012, -0.004, 0.029) == "+1.20% (-0.40% to +2.90%)");
  CHECK(format_change_interval(-0.00001, -0.02, 0.00002) == "0.00% (-2.00% to 0.00%)");
}

TEST_CASE("format_change is direction-aware", "[format]") {
  CHECK(format_change(0.0764, true) == "+7.64% better");
  CHECK(format_change(-0.2, true) == "-20.00% worse");
  CHECK(format_change(0.0, true) == "~0% observed change");
  CHECK(format_change(0.0764, false) == "+7.64% slower");
  CHECK(format_change(0.0764, benchreport::Direction::higher_is_better) == "+7.64% better");
  CHECK(format_change(0.0764, benchreport::Direction::lower_is_better) == "+7.64% slower");
  CHECK(format_change_percent(0.6003) == "+60.03%");
  CHECK(format_change_percent(-0.095) == "-9.50%");
  CHECK(format_change_percent(0.0) == "0.00%");
}

TEST_CASE("percent, fixed, ranges and integers", "[format]") {
  CHECK(format_percent(0.024, 1) == "2.4%");
  CHECK(format_percent(0.010, 1) == "1.0%");
  CHECK(format_percent(0.0764, 2) == "7.64%");
  CHECK(format_percent(0.2380, 1) == "23.8%");
  CHECK(format_fixed(45851.1) == "45851.10");
  CHECK(format_fixed(512.0, 1) == "512.0");
  CHECK(format_range(42062.37, 51322.25) == "42062.37\u201351322.25");
  CHECK(format_integer(12818.0) == "12818");
  CHECK(format_integer(81920.0, true) == "81,920");
  CHECK(format_integer(-61952.0, true) == "-61,952");
  CHECK(format_integer(1234567.0, true, '_') == "1_234_567");
  CHECK(format_integer(999.0, true) == "999");
  CHECK(format_integer(-0.4) == "0");
  // Exact binary ties round to even, as printf does.
  CHECK(format_integer(218.5) == "218");
  CHECK(format_integer(219.5) == "220");
}

TEST_CASE("rates, sizes and bits scale automatically", "[format]") {
  CHECK(format_rate(45851.1, "iterations/s") == "45.85k iterations/s");
  CHECK(format_rate(512.0) == "512.0 ops/s");
  CHECK(format_rate(2.5e6) == "2.500M ops/s");
  CHECK(format_rate(3e9) == "3.000G ops/s");
  CHECK(format_rate(999.999) == "1.000k ops/s");
  CHECK(format_bytes(512.0) == "512 B");
  CHECK(format_bytes(1023.6) == "1.000 KiB");
  CHECK(format_bytes(1023.4) == "1023 B");
  CHECK(format_bytes(1000.0 * 1024) == "1000 KiB");
  CHECK(format_bytes(1536.0) == "1.500 KiB");
  CHECK(format_bytes(512.0 * 1024 * 1024) == "512.0 MiB");
  CHECK(format_bytes(2.0 * 1024 * 1024 * 1024) == "2.000 GiB");
  CHECK(format_byte_rate(94.70 * 1024 * 1024) == "94.70 MiB/s");
  CHECK(format_bits(273.73e6) == "273.7 Mbps");
  CHECK(format_bits(1.5e9) == "1.500 Gbps");
  CHECK(format_bits(800.0) == "800.0 bps");
}

TEST_CASE("sparklines scale between the extremes and bucket long series", "[format]") {
  const std::vector<double> rising{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(format_sparkline(rising) == "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588");
  const std::vector<double> flat{3, 3, 3};
  CHECK(format_sparkline(flat) == "\u2584\u2584\u2584");
  CHECK(format_sparkline(std::vector<double>{}).empty());
  const std::vector<double> with_nan{1, kNaN, 2};
  CHECK(format_sparkline(with_nan) == "\u2581\u2588");
  std::vector<double> long_series(100);
  for (std::size_t i = 0; i < long_series.size(); ++i) long_series[i] = static_cast<double>(i);
  const auto points = sparkline_points(long_series, 10);
  REQUIRE(points.size() == 10);
  CHECK(points[0] == Approx(4.5));   // mean of 0..9
  CHECK(points[9] == Approx(94.5));  // mean of 90..99
}

TEST_CASE("sparklines of extreme finite values stay finite (fuzz regression)", "[format]") {
  constexpr double kMax = std::numeric_limits<double>::max();
  // max - (-max) overflows to inf; so did the bucket sum of many huge values.
  const std::vector<double> extremes{-kMax, kMax, 0.0};
  CHECK(format_sparkline(extremes) == "\u2581\u2588\u2585");
  const std::vector<double> levels = sparkline_levels(extremes, 16);
  REQUIRE(levels.size() == 3);
  CHECK(levels[0] == 0.0);
  CHECK(levels[1] == 1.0);
  CHECK(levels[2] == Approx(0.5));
  // Three DBL_MAX in a bucket of three: max/3 summed three times rounds to inf.
  std::vector<double> mixed(3, kMax);
  mixed.insert(mixed.end(), 45, 1.0);
  for (const double p : sparkline_points(mixed, 16)) CHECK(std::isfinite(p));
  const std::vector<double> mixed_levels = sparkline_levels(mixed, 16);
  CHECK(mixed_levels.front() == 1.0);
  CHECK(mixed_levels.back() == 0.0);
  CHECK(format_sparkline(mixed, 16).rfind("\u2588", 0) == 0);
  const std::vector<double> huge(64, kMax);
  for (const double p : sparkline_points(huge, 4)) CHECK(p == Approx(kMax));
  CHECK(format_sparkline(huge, 4) == "\u2584\u2584\u2584\u2584");
}

TEST_CASE("format_value: one function, the presets' styles", "[format]") {
  const Unit ms = parse_unit("ms");
  const Unit mib_s = parse_unit("MiB/s");
  const Unit kib = parse_unit("KiB");
  const Unit ops = parse_unit("ops/s");
  const Unit one = parse_unit("1");
  const Unit allocs = parse_unit("allocs/op");
  // Times scale in every style but whole milliseconds.
  CHECK(format_value(851.2 * kNs, ms) == "851.2 ns");
  CHECK(format_value(1.6e-3, ms, {.significant = true}) == "1.600 ms");
  CHECK(format_value(0.2236, ms, {.integer_ms = true, .symbol = ValueStyle::Symbol::hidden}) == "224");
  CHECK(format_value(0.2236, ms, {.integer_ms = true}) == "224 ms");
  // Comparison: four significant digits in the set's own unit.
  CHECK(format_value(23456.0 * 1024 * 1024, mib_s, {.significant = true}) == "23456 MiB/s");
  CHECK(format_value(3.0, allocs, {.significant = true}) == "3.000 allocs/op");
  CHECK(format_value(-0.5, allocs, {.significant = true}) == "-0.5000 allocs/op");
  // Matrix: fixed decimals, the unit in the header or after the number.
  CHECK(format_value(21.0 * 1024 * 1024, mib_s, {.symbol = ValueStyle::Symbol::hidden}) == "21.00");
  CHECK(format_value(21.0 * 1024 * 1024, mib_s) == "21.00 MiB/s");
  // Summary: sizes and rates scaled.
  CHECK(format_value(1536.0, kib, {.scale = true}) == "1.500 KiB");
  CHECK(format_value(94.7 * 1024 * 1024, mib_s, {.scale = true}) == "94.70 MiB/s");
  CHECK(format_value(45851.1, ops, {.scale = true}) == "45.85k ops/s");
  CHECK(format_value(3.0, allocs, {.scale = true}) == "3.00 allocs/op");
  CHECK(format_value(3.0, allocs, {.scale = true, .significant = true}) == "3.000 allocs/op");
  // The dimensionless "1": shown by comparison and matrix, not by the summary; unavailable values are the dash.
  CHECK(format_value(2.554, one, {.significant = true}) == "2.554 1");
  CHECK(format_value(2.5, one, {.symbol = ValueStyle::Symbol::shown_unless_one}) == "2.50");
  CHECK(format_value(kNaN, ms) == "\u2014");
  CHECK(format_value(kInf, ops, {.scale = true}) == "\u2014");
}

TEST_CASE("verdict_role colours each verdict by its own role", "[format]") {
  CHECK(verdict_role(Verdict::faster) == CellRole::faster);
  CHECK(verdict_role(Verdict::slower) == CellRole::slower);
  CHECK(verdict_role(Verdict::inconclusive) == CellRole::inconclusive);
  CHECK(verdict_role(Verdict::equivalent) == CellRole::equivalent);
  CHECK(verdict_role(Verdict::unchanged) == CellRole::unchanged);
}
