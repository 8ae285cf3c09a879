#include <catch2/catch.hpp>
#include <string>

#include "benchreport/core/error.hpp"

TEST_CASE("version string is semantic", "[version]") {
  const std::string v = benchreport::version();
  REQUIRE(std::count(v.begin(), v.end(), '.') == 2);
}
