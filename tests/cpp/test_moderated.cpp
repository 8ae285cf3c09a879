// Hand-checked edges of the empirical-Bayes moderated t (stats/moderated_t.hpp); the
// scipy cross-checks and the simulations live in tests/python/test_moderated.py.
#include <catch2/catch.hpp>

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/moderated_t.hpp"

using namespace benchreport;
using V = std::vector<double>;

TEST_CASE("trigamma_inverse inverts trigamma", "[moderated]") {
  for (double x : {1e-4, 0.1, 0.7, 1.6449340668482264, 9.0, 1e3}) {
    REQUIRE(boost::math::trigamma(trigamma_inverse(x)) == Approx(x).epsilon(1e-9));
  }
  REQUIRE(trigamma_inverse(1.6449340668482264) == Approx(1.0).epsilon(1e-9));  // trigamma(1) = pi^2/6
  REQUIRE_THROWS_AS(trigamma_inverse(0.0), InputError);
}

TEST_CASE("variance prior: fallbacks and the common-variance limit", "[moderated]") {
  const VariancePrior few = estimate_variance_prior(V{1e-4, 2e-4}, V{2, 2});
  REQUIRE(few.fallback == PriorFallback::too_few_cases);
  REQUIRE(few.d0 == 0);
  // A zero variance and a df below 1 are left out.
  REQUIRE(estimate_variance_prior(V{0, 1e-4, 2e-4, 3e-4}, V{2, 2, 0.5, 2}).cases_used == 2);
  // Equal variances: d0 = inf, s0^2 = the common value, a case's df capped at the pooled df.
  const VariancePrior same = estimate_variance_prior(V{1e-4, 1e-4, 1e-4, 1e-4}, V{3, 3, 3, 3});
  REQUIRE(std::isinf(same.d0));
  // s0^2 = exp(mean e), e = log s^2 - digamma(d/2) + log(d/2): the log-chi-square bias removed.
  REQUIRE(same.s0_squared == Approx(1e-4 * std::exp(std::log(1.5) - boost::math::digamma(1.5))).epsilon(1e-12));
  const ModeratedVariance m = moderate_variance(9e-4, 3, same);
  REQUIRE(m.variance == Approx(same.s0_squared));
  REQUIRE(m.df == 12);
  // No prior: the case keeps its own variance and df.
  const ModeratedVariance own = moderate_variance(9e-4, 3, few);
  REQUIRE(own.variance == 9e-4);
  REQUIRE(own.df == 3);
  REQUIRE_THROWS_AS(estimate_variance_prior(V{1, 2, 3}, V{1, 2}), InputError);
}

TEST_CASE("rule power and the detectable change", "[moderated]") {
  // Known se, no threshold: power = Phi(delta/se - q); at delta = se (q + z_0.8) it is 0.8.
  const double q = 1.959963984540054, z80 = 0.8416212335729143;
  REQUIRE(rule_power(0.01 * (q + z80), 0.01, std::numeric_limits<double>::infinity(), q, 0) == Approx(0.8));
  REQUIRE(detectable_log_change(0.01, std::numeric_limits<double>::infinity(), 0.95, 0) ==
          Approx(0.01 * (q + z80)).epsilon(1e-8));
  // The threshold binds: the detectable change is never below it.
  REQUIRE(detectable_log_change(0.001, 20, 0.95, 0.05) > 0.05);
  REQUIRE(std::isnan(detectable_log_change(0, 3, 0.95, 0.05)));
  // Fewer df, larger detectable change.
  REQUIRE(detectable_log_change(0.01, 2, 0.95, 0.0) > detectable_log_change(0.01, 8, 0.95, 0.0));
}

TEST_CASE("timer resolution", "[moderated]") {
  REQUIRE(timer_resolution(V{500, 510, 500, 510}) == 10);
  REQUIRE(std::isnan(timer_resolution(V{3, 3, 3})));
}
