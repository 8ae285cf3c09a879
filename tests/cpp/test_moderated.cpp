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
#include "benchreport/stats/robust_prior.hpp"

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

TEST_CASE("prior excess z: one-df cases raise it, never lower it", "[moderated]") {
  REQUIRE(prior_excess_z_for(V{2, 2, 4}, 1.645) == 1.645);
  REQUIRE(prior_excess_z_for(V{1, 2, 2}, 1.645) == kOneDfExcessZ);  // one 2-process paired case is enough
  REQUIRE(prior_excess_z_for(V{1, 1}, 3.0) == 3.0);                 // a stricter choice stays
  REQUIRE(prior_excess_z_for(V{1, 1}, 0.0) == kOneDfExcessZ);       // Smyth's point estimate is not kept at d = 1
  REQUIRE(prior_excess_z_for(V{0.5, 2}, 0.0) == 0.0);               // below 1 df a case is left out of the prior
  REQUIRE(prior_excess_z_for(V{}, 1.645) == 1.645);
}

TEST_CASE("winsorised log-F moments tend to the plain ones as the tails shrink", "[moderated]") {
  // E log F(d1, d0) = psi(d1/2) - psi(d0/2) + log(d0/d1), Var = trigamma(d1/2) + trigamma(d0/2).
  for (const auto& [d1, d0] : {std::pair{2.0, 6.0}, std::pair{4.0, 20.0}, std::pair{8.0, 3.0}}) {
    const WinsorisedMoments w = winsorised_log_f_moments(d1, d0, 1e-9, 1e-9);
    using boost::math::digamma, boost::math::trigamma;
    REQUIRE(w.mean == Approx(digamma(d1 / 2) - digamma(d0 / 2) + std::log(d0 / d1)).margin(1e-6));
    REQUIRE(w.variance == Approx(trigamma(d1 / 2) + trigamma(d0 / 2)).epsilon(1e-5));
    // Winsorising shrinks the variance; a larger d0 shrinks it further.
    REQUIRE(winsorised_log_f_moments(d1, d0).variance < w.variance);
    REQUIRE(winsorised_log_f_moments(d1, 2 * d0).variance < winsorised_log_f_moments(d1, d0).variance);
  }
  REQUIRE_THROWS_AS(winsorised_log_f_moments(2, 3, 0.6, 0.5), InputError);
}

TEST_CASE("robust prior: a hypervariable case gets less prior, the rest keep d0", "[moderated]") {
  // 20 cases on 4 df spread like chi2_4/4 quantiles around 1e-4, and one at 400x.
  V s2, d(21, 4.0);
  for (int i = 1; i <= 20; ++i) s2.push_back(1e-4 * (0.3 + 0.1 * i));
  s2.push_back(4e-2);
  const VariancePrior p = estimate_robust_variance_prior(s2, d);
  REQUIRE(p.fallback == PriorFallback::none);
  REQUIRE(p.d0 > 0);
  REQUIRE(p.case_d0.size() == 21);
  REQUIRE(p.case_d0[20] < 0.05 * p.d0_of(0));
  REQUIRE(p.case_d0[0] == p.d0);
  // The outlier keeps nearly its own variance; with the common d0 it would be pulled towards s0^2.
  REQUIRE(moderate_variance(s2[20], 4, p, 20).variance > 0.9 * s2[20]);
  REQUIRE(moderate_variance(s2[20], 4, p).variance < 0.7 * s2[20]);
  // d0 and s0^2 are Smyth's.
  REQUIRE(estimate_variance_prior(s2, d).d0 == p.d0);
  REQUIRE(estimate_variance_prior(s2, d).s0_squared == p.s0_squared);
  REQUIRE(estimate_robust_variance_prior(V{1e-4, 2e-4}, V{2, 2}).fallback == PriorFallback::too_few_cases);
}

TEST_CASE("robust prior: a second screen only lowers a case's prior df", "[moderated]") {
  V s2, d(21, 4.0);
  for (int i = 1; i <= 21; ++i) s2.push_back(1e-4 * (0.3 + 0.1 * i));
  VariancePrior p = estimate_robust_variance_prior(s2, d);
  REQUIRE(p.d0 > 0);
  const double d0 = p.d0;
  // A second set of variances of the same cases (say, paired: the sides' spreads) where case 3 is at 400x.
  V sides = s2;
  sides[3] = 4e-2;
  const V shares = outlier_shares(sides, d);
  REQUIRE(shares[3] < 0.05);
  REQUIRE(shares[0] == 1.0);
  limit_case_d0(p, shares);
  REQUIRE(p.case_d0[3] == Approx(shares[3] * std::min(d0, p.pooled_df)).epsilon(1e-12));
  REQUIRE(p.case_d0[0] == d0);
  REQUIRE(p.d0 == d0);
  limit_case_d0(p, V(21, 1.0));  // an all-ordinary screen changes nothing
  REQUIRE(p.case_d0[3] == Approx(shares[3] * std::min(d0, p.pooled_df)).epsilon(1e-12));
  REQUIRE_THROWS_AS(limit_case_d0(p, V(3, 0.5)), InputError);
  REQUIRE_THROWS_AS(outlier_shares(V{1, 2}, V{1}), InputError);
  REQUIRE(outlier_shares(V{1e-4, 4e-2}, V{4, 4}) == V{1, 1});  // fewer than 3 usable: no screen
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
