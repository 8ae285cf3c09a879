#include <catch2/catch.hpp>

#include "benchreport/core/error.hpp"
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
