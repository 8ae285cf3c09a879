#include "benchreport/stats/moderated_t.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// P(chi2_df / df <= u): the chance that the estimated se is at most sqrt(u) times the true one.
double scaled_chi2_cdf(double df, double u) {
  if (u <= 0) return 0;
  if (std::isinf(df)) return u >= 1 ? 1 : 0;
  return boost::math::cdf(boost::math::chi_squared_distribution<double>(df), df * u);
}

// The quantile of the interval: t_{df, (1 + confidence)/2}, normal when df = inf.
double interval_quantile(double df, double confidence) {
  const double p = (1 + confidence) / 2;
  if (std::isinf(df)) return boost::math::quantile(boost::math::normal_distribution<double>(), p);
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

}  // namespace

std::string_view to_string(PriorFallback f) noexcept {
  switch (f) {
    case PriorFallback::none: return "none";
    case PriorFallback::too_few_cases: return "too_few_cases";
    case PriorFallback::too_heterogeneous: return "too_heterogeneous";
  }
  return "unknown";
}

double trigamma_inverse(double x) {
  if (!(x > 0) || !std::isfinite(x)) throw InputError("trigamma_inverse: x must be finite and > 0");
  if (x > 1e7) return 1 / std::sqrt(x);
  if (x < 1e-6) return 1 / x;
  double y = 0.5 + 1 / x;  // trigamma(y) ≈ 1/y + 1/(2 y^2): 1/trigamma is nearly linear in y
  for (int iter = 0; iter < 100; ++iter) {
    const double tri = boost::math::trigamma(y);
    const double dif = tri * (1 - tri / x) / boost::math::polygamma(2, y);
    y += dif;
    if (-dif / y < 1e-10) break;
  }
  return y;
}

VariancePrior estimate_variance_prior(std::span<const double> variances, std::span<const double> dfs,
                                      double excess_z, std::size_t min_cases, double min_d0) {
  if (variances.size() != dfs.size()) throw InputError("variance prior: variances and dfs differ in length");
  std::vector<double> e;
  double trigamma_sum = 0, pooled_df = 0;
  for (std::size_t g = 0; g < variances.size(); ++g) {
    const double s2 = variances[g], d = dfs[g];
    if (!(s2 > 0) || !std::isfinite(s2) || !(d >= 1) || !std::isfinite(d)) continue;
    e.push_back(std::log(s2) - boost::math::digamma(d / 2) + std::log(d / 2));
    trigamma_sum += boost::math::trigamma(d / 2);
    pooled_df += d;
  }
  VariancePrior prior;
  prior.cases_used = e.size();
  prior.pooled_df = pooled_df;
  if (e.size() < std::max<std::size_t>(min_cases, 2)) {
    prior.fallback = PriorFallback::too_few_cases;
    return prior;
  }
  const double g = static_cast<double>(e.size());
  double mean = 0;
  for (double v : e) mean += v;
  mean /= g;
  double ss = 0, m4 = 0;
  for (double v : e) {
    const double c2 = (v - mean) * (v - mean);
    ss += c2;
    m4 += c2 * c2;
  }
  const double var = ss / (g - 1);
  m4 /= g;
  const double se_var = std::sqrt(std::max(0.0, m4 - (g - 3) / (g - 1) * var * var) / g);
  const double excess = var + excess_z * se_var - trigamma_sum / g;
  if (excess > 0) {
    const double d0 = 2 * trigamma_inverse(excess);
    if (d0 < min_d0) {
      prior.fallback = PriorFallback::too_heterogeneous;
      return prior;
    }
    prior.d0 = d0;
    prior.s0_squared = std::exp(mean + boost::math::digamma(d0 / 2) - std::log(d0 / 2));
  } else {
    prior.d0 = kInf;
    prior.s0_squared = std::exp(mean);
  }
  prior.fallback = PriorFallback::none;
  return prior;
}

ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior) {
  if (!(prior.d0 > 0)) return {variance, df};
  if (std::isinf(prior.d0)) return {prior.s0_squared, prior.pooled_df > 0 ? prior.pooled_df : kInf};
  return {(prior.d0 * prior.s0_squared + df * variance) / (prior.d0 + df),
          prior.pooled_df > 0 ? std::min(df + prior.d0, prior.pooled_df) : df + prior.d0};
}

double rule_power(double delta, double se, double df, double q, double tau) {
  if (!(se > 0) || !(df > 0) || !(q > 0)) return kNaN;
  const double lo = std::max(tau, 0.0);
  // x = delta + se z: P = ∫_{z0}^∞ φ(z) F(((delta/se + z) / q)^2) dz, F the scaled chi-square cdf.
  const double z0 = (lo - delta) / se;
  const double m = delta / se;
  const double z_hi = std::max(z0, 0.0) + 12;
  const auto integrand = [&](double z) {
    const double r = (m + z) / q;
    return std::exp(-0.5 * z * z) * 0.3989422804014327 * scaled_chi2_cdf(df, r * r);
  };
  if (std::isinf(df)) {  // known se: the estimate must pass both q se and tau
    const double z_lo = std::max(z0, q - m);
    return boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(), z_lo));
  }
  // Split at z0 + a few points so the kernel's shoulder is resolved.
  double total = 0;
  const double edges[] = {z0, z0 + 2, z0 + 5, z_hi};
  for (int i = 0; i < 3; ++i) {
    const double a = std::max(edges[i], z0), b = std::max(edges[i + 1], a);
    if (b > a) total += boost::math::quadrature::gauss_kronrod<double, 31>::integrate(integrand, a, b, 8, 1e-12);
  }
  return std::clamp(total, 0.0, 1.0);
}

double detectable_log_change(double se, double df, double confidence, double tau, double power) {
  if (!(se > 0) || !std::isfinite(se) || !(df > 0) || !(confidence > 0 && confidence < 1) || !(power > 0 && power < 1)) {
    return kNaN;
  }
  const double q = interval_quantile(df, confidence);
  const double lo = std::max(tau, 0.0);
  const auto f = [&](double delta) { return rule_power(delta, se, df, q, tau) - power; };
  double hi = lo + se * (q + 4);
  while (f(hi) < 0) {
    hi = lo + 2 * (hi - lo);
    if (hi > lo + 1e6 * se) return kNaN;
  }
  if (f(lo) >= 0) return lo;
  std::uintmax_t iterations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(f, lo, hi, boost::math::tools::eps_tolerance<double>(40),
                                                        iterations);
  return (a + b) / 2;
}

double timer_resolution(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  double best = kInf;
  for (std::size_t i = 1; i < v.size(); ++i) {
    const double d = v[i] - v[i - 1];
    if (d > 0 && d < best) best = d;
  }
  return std::isinf(best) ? kNaN : best;
}

}  // namespace benchreport
