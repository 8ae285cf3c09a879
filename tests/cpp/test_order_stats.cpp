#include <catch2/catch.hpp>
#include <vector>

#include "benchreport/stats/order_stats.hpp"

using benchreport::median;

TEST_CASE("median of odd and even sets", "[order_stats]") {
  REQUIRE(median(std::vector<double>{100, 2, 3, 4, 1}) == 3.0);
  REQUIRE(median(std::vector<double>{1, 2, 3, 4}) == 2.5);
  REQUIRE(median(std::vector<double>{7}) == 7.0);
  REQUIRE(median(std::vector<double>{5, 5, 5, 5}) == 5.0);
}

TEST_CASE("unscaled MAD", "[order_stats]") {
  std::vector<double> v{100, 2, 3, 4, 1};
  REQUIRE(benchreport::mad_inplace(v, 3.0) == 1.0);
}
