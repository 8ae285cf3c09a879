#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/best.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/data/units.hpp"

using namespace benchreport;

TEST_CASE("time units scale to seconds and are lower-is-better", "[units]") {
  CHECK(parse_unit("ns").to_base == 1e-9);
  CHECK(parse_unit("us").to_base == 1e-6);
  CHECK(parse_unit("\u00b5s").to_base == 1e-6);
  CHECK(parse_unit("\u03bcs").to_base == 1e-6);
  CHECK(parse_unit("ms").to_base == 1e-3);
  CHECK(parse_unit("s").to_base == 1.0);
  CHECK(parse_unit("ns/op").dimension == Dimension::time);
  CHECK_FALSE(parse_unit("ms").higher_is_better);
  CHECK(parse_unit("ms").symbol == "ms");
}

TEST_CASE("byte units use binary and decimal prefixes as spelled", "[units]") {
  CHECK(parse_unit("KiB").to_base == 1024.0);
  CHECK(parse_unit("MiB").to_base == 1048576.0);
  CHECK(parse_unit("GiB").to_base == 1073741824.0);
  CHECK(parse_unit("kB").to_base == 1000.0);
  CHECK(parse_unit("MB").to_base == 1e6);
  CHECK(parse_unit("B/op").dimension == Dimension::bytes);
}

TEST_CASE("rates are higher-is-better", "[units]") {
  for (const char* symbol : {"ops/s", "iterations/s", "items/s", "IOPS", "B/s", "MiB/s", "MB/s", "Mbps"}) {
    INFO(symbol);
    CHECK(parse_unit(symbol).higher_is_better);
  }
  CHECK(parse_unit("MiB/s").to_base == 1048576.0);
  CHECK(parse_unit("Mbps").to_base == 125000.0);
  CHECK(parse_unit("IOPS").dimension == Dimension::rate_time);
  CHECK(parse_unit("MB/s").dimension == Dimension::rate_bytes);
}

TEST_CASE("counts and dimensionless units", "[units]") {
  CHECK(parse_unit("allocs/op").dimension == Dimension::count);
  CHECK_FALSE(parse_unit("allocs/op").higher_is_better);
  CHECK(parse_unit("%").to_base == 0.01);
  CHECK(parse_unit("1").dimension == Dimension::dimensionless);
}

TEST_CASE("unknown units are an error naming the unit, or custom on request", "[units]") {
  CHECK_THROWS_WITH(parse_unit("furlongs"), Catch::Contains("furlongs") && Catch::Contains("ns"));
  CHECK_THROWS_AS(parse_unit(""), InputError);
  bool known = true;
  const Unit custom = parse_unit_or_custom("frames", &known);
  CHECK_FALSE(known);
  CHECK(custom.dimension == Dimension::custom);
  CHECK(custom.symbol == "frames");
  CHECK(custom.to_base == 1.0);
  CHECK_FALSE(custom.higher_is_better);
}

TEST_CASE("base symbols and dimension names", "[units]") {
  CHECK(base_symbol(Dimension::time) == "s");
  CHECK(base_symbol(Dimension::rate_bytes) == "B/s");
  CHECK(dimension_name(Dimension::rate_time) == "rate_time");
  CHECK(known_unit_symbols().find("MiB/s") != std::string::npos);
}

TEST_CASE("from_base inverts the unit scaling exactly", "[units]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-12, 12);
  for (const char* symbol : {"ns", "us", "ms", "MiB/s", "Mbps", "%", "KiB"}) {
    const Unit unit = parse_unit(symbol);
    for (int i = 0; i < 2000; ++i) {
      const double x = std::pow(10.0, dist(rng));
      const double base = x * unit.to_base;
      CHECK(from_base(base, unit) * unit.to_base == base);
    }
  }
  CHECK(from_base(851.2 * 1e-9, parse_unit("ns")) == 851.2);
}

TEST_CASE("a time's display unit is picked after rounding to four significant digits", "[units]") {
  const Unit seconds = parse_unit("s");
  struct Case {
    double value;
    const char* symbol;
    double base_per_unit;
  };
  for (const auto& c : {Case{999.94e-9, "ns", 1e-9}, Case{999.96e-9, "\u00b5s", 1e-6}, Case{999.96e-6, "ms", 1e-3},
                        Case{0.99996, "s", 1.0}, Case{59.994, "s", 1.0}, Case{59.996, "min", 60.0},
                        Case{3599.9, "h", 3600.0}, Case{-999.96e-9, "\u00b5s", 1e-6}, Case{0.0, "ns", 1e-9}}) {
    const DisplayUnit shown = display_unit(c.value, seconds);
    CHECK(shown.symbol == c.symbol);
    CHECK(shown.base_per_unit == c.base_per_unit);
  }
  CHECK(display_unit(NAN, seconds).symbol == "s");
  const Unit rate = parse_unit("MiB/s");
  CHECK(display_unit(5e9, rate).symbol == "MiB/s");
  CHECK(display_unit(5e9, rate).base_per_unit == rate.to_base);
}

TEST_CASE("pick_scale keeps the digits it rounded to", "[units]") {
  const ScaledDigits ns = pick_scale(999.96, time_scales());
  CHECK(time_scales()[ns.scale].symbol == "\u00b5s");
  CHECK(ns.digits == "1.000");
  const ScaledDigits bytes = pick_scale(512.0, byte_scales());
  CHECK(byte_scales()[bytes.scale].symbol == "B");
  CHECK(bytes.digits == "512");
  CHECK(display_digits(9.9996, kSignificant) == "10.00");
  CHECK(display_digits(45851.1, 2) == "45851.10");
}

TEST_CASE("best_index is direction-aware and keeps the first of equals", "[units]") {
  const std::vector<std::optional<double>> values{std::nullopt, 3.0, 1.0, 3.0, 1.0};
  CHECK(best_index(values, Direction::higher_is_better) == 1u);
  CHECK(best_index(values, Direction::lower_is_better) == 2u);
  CHECK(best_index(values, opposite(Direction::lower_is_better)) == 1u);
  CHECK_FALSE(best_index(std::vector<std::optional<double>>{std::nullopt}, Direction::lower_is_better));
  CHECK(is_better(1.0, 2.0, Direction::lower_is_better));
  CHECK_FALSE(is_better(2.0, 2.0, Direction::higher_is_better));
}

TEST_CASE("directions are parsed in one place, in both spellings, and name the field on error", "[units]") {
  using benchreport::Direction;
  CHECK(benchreport::parse_direction("lower") == Direction::lower_is_better);
  CHECK(benchreport::parse_direction("lower_is_better") == Direction::lower_is_better);
  CHECK(benchreport::parse_direction("higher") == Direction::higher_is_better);
  CHECK(benchreport::parse_direction("higher_is_better") == Direction::higher_is_better);
  for (Direction d : {Direction::lower_is_better, Direction::higher_is_better})
    CHECK(benchreport::parse_direction(benchreport::direction_name(d)) == d);
  CHECK_THROWS_WITH(benchreport::parse_direction("Lower", "series direction"),
                    "series direction is 'Lower': expected 'lower' or 'higher'");
  CHECK_THROWS_AS(benchreport::parse_direction(""), benchreport::InputError);
}
