// Numerical edges: midpoints and Walsh averages near the double limits, std/CV
// at extreme scales, exact binomial counts, the size-weighted disparity.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/rank_tests.hpp"
#include "benchreport/stats/summary.hpp"

using namespace benchreport;
using V = std::vector<double>;

TEST_CASE("center and median do not overflow near the double limits", "[numeric]") {
  REQUIRE(center(V{1e308, 1e308}) == 1e308);
  const double c = center(V{1e308, 1.5e308, 1.7e308});
  REQUIRE(std::isfinite(c));
  REQUIRE(c == Approx(1.425e308));  // Walsh averages 1, 1.25, 1.35, 1.5, 1.6, 1.7 (e308)
  REQUIRE(median(V{-1.7e308, 1.7e308}) == 0.0);
  REQUIRE(median(V{1.7e308, 1.7e308}) == 1.7e308);
  REQUIRE(midpoint(1.0, 2.0) == 1.5);
}

TEST_CASE("std and CV at extreme scales", "[numeric]") {
  for (double scale : {1e-300, 1e300, 1.0}) {
    const Summary s = summarize(V{1 * scale, 2 * scale, 3 * scale});
    const double expected_std = std::sqrt(2.0 / 3.0) * scale;
    REQUIRE(s.std_population == Approx(expected_std).epsilon(1e-12));
    REQUIRE(s.cv == Approx(std::sqrt(2.0 / 3.0) / 2).epsilon(1e-12));
  }
  REQUIRE(summarize(V{5, 5, 5}).std_population == 0);
}

TEST_CASE("binomial coefficients are exact where they fit", "[numeric]") {
  REQUIRE(binomial_coefficient(25, 2) == 300);
  REQUIRE(binomial_coefficient(60, 30) == 118264581564861424.0);
  REQUIRE(binomial_coefficient(5, 7) == 0);
  // n = 2, m = 23, misrate 0.2: 2 * P(U <= 29) = 60/300 = 0.2 exactly is attainable.
  const Bounds b = shift_bounds(
      V{1, 2}, V{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25}, 0.2);
  REQUIRE(b.achieved_misrate <= 0.2);
}

TEST_CASE("disparity averages the spreads weighted by sample size (pragmastat)", "[numeric]") {
  const V x{1, 2, 4}, y{3, 4, 6, 7, 9};
  const double expected = hodges_lehmann_shift(x, y) / ((3 * spread(x) + 5 * spread(y)) / 8);
  REQUIRE(disparity(x, y) == Approx(expected).epsilon(1e-14));
}
