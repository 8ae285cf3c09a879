#include "benchreport/stats/moderated_t.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/quadrature/gauss.hpp>
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
// Above this many df the estimated se is taken as known in the power: sd(se_hat / se) = 1/sqrt(2 df)
// is below 5 %, and the power moves by less than half a point (tests/python/test_moderated.py).
constexpr double kKnownSeDf = 200;

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

double prior_excess_z_for(std::span<const double> dfs, double excess_z) {
  const bool one_df = std::any_of(dfs.begin(), dfs.end(), [](double d) { return d >= 1 && d < 2; });
  return one_df ? std::max(excess_z, kOneDfExcessZ) : excess_z;
}

VariancePrior estimate_variance_prior(std::span<const double> variances, std::span<const double> dfs, double excess_z,
                                      std::size_t min_cases, double min_d0) {
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

namespace {

ModeratedVariance moderate_with(double variance, double df, double d0, const VariancePrior& prior) {
  if (!(d0 > 0)) return {variance, df};
  if (std::isinf(d0)) return {prior.s0_squared, prior.pooled_df > 0 ? prior.pooled_df : kInf};
  return {(d0 * prior.s0_squared + df * variance) / (d0 + df),
          prior.pooled_df > 0 ? std::min(df + d0, prior.pooled_df) : df + d0};
}

}  // namespace

ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior) {
  return moderate_with(variance, df, prior.d0, prior);
}

ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior, std::size_t i) {
  return moderate_with(variance, df, prior.d0_of(i), prior);
}

namespace {

// Quadrature nodes of S = se_hat / se, S^2 ~ chi2_df / df, with the density folded into the weights:
// E g(S) ≈ Σ w_j g(s_j). Fixed 20-point Gauss–Legendre on kPieces equal pieces of [0, s_max]
// (s_max: the 1 - 1e-12 quantile), with a cut at `kink` (where the rule's bound switches from the
// threshold to the interval), built once per (df, kink) and reused for every change tried.
struct SeNodes {
  std::vector<double> s, w;
};

SeNodes se_nodes(double df, double kink) {
  constexpr int kPieces = 8;
  const boost::math::chi_squared_distribution<double> chi2(df);
  const double s_max = std::sqrt(boost::math::quantile(boost::math::complement(chi2, 1e-12)) / df);
  const double log_norm = std::log(2 * df) - std::lgamma(df / 2) - (df / 2) * std::log(2.0);
  const auto density = [&](double x) {  // of S at x: 2 df x f_chi2(df x^2)
    if (x <= 0) return df == 1 ? 2 * 0.3989422804014327 : 0.0;
    const double u = df * x * x;
    return std::exp(log_norm + std::log(x) + (df / 2 - 1) * std::log(u) - u / 2);
  };
  std::vector<double> cuts;
  for (int i = 0; i <= kPieces; ++i) cuts.push_back(s_max * i / kPieces);
  if (kink > 0 && kink < s_max) cuts.push_back(kink);
  std::sort(cuts.begin(), cuts.end());
  using GL = boost::math::quadrature::gauss<double, 20>;
  SeNodes out;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double a = cuts[i], b = cuts[i + 1], half = (b - a) / 2, mid = (a + b) / 2;
    if (!(b > a)) continue;
    // boost stores the non-negative abscissas of the symmetric rule (zero first for odd orders)
    for (std::size_t k = 0; k < GL::abscissa().size(); ++k) {
      for (double sign : {-1.0, 1.0}) {
        const double t = sign * GL::abscissa()[k];
        const double x = mid + half * t;
        out.s.push_back(x);
        out.w.push_back(half * GL::weights()[k] * density(x));
      }
    }
  }
  return out;
}

// P(estimate >= r se and estimate > q se_hat) for estimate ~ N(m se, se^2): E_S Φ̄(max(r, q S) - m).
double power_on(const SeNodes& nodes, double m, double q, double r) {
  double p = 0;
  for (std::size_t j = 0; j < nodes.s.size(); ++j) {
    p += nodes.w[j] * 0.5 * std::erfc((std::max(r, q * nodes.s[j]) - m) * 0.7071067811865476);
  }
  return std::clamp(p, 0.0, 1.0);
}

double known_se_power(double m, double q, double r) {
  return boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(), std::max(r, q) - m));
}

}  // namespace

double rule_power(double delta, double se, double df, double q, double tau) {
  if (!(se > 0) || !(df > 0) || !(q > 0)) return kNaN;
  const double r = std::max(tau, 0.0) / se, m = delta / se;
  if (std::isinf(df) || df > kKnownSeDf) return known_se_power(m, q, r);
  return power_on(se_nodes(df, r / q), m, q, r);
}

double detectable_log_change(double se, double df, double confidence, double tau, double power, double quantile) {
  if (!(se > 0) || !std::isfinite(se) || !(df > 0) || !(confidence > 0 && confidence < 1) ||
      !(power > 0 && power < 1)) {
    return kNaN;
  }
  const double q = std::isfinite(quantile) ? quantile : interval_quantile(df, confidence);
  const double r = std::max(tau, 0.0) / se;
  // With a known se the answer is max(q, r) + z_power (in se units); an estimated se needs more.
  const double z_power = boost::math::quantile(boost::math::normal_distribution<double>(), power);
  const double known = std::max(q, r) + z_power;
  if (std::isinf(df) || df > kKnownSeDf) return se * std::max(known, r);
  const SeNodes nodes = se_nodes(df, r / q);
  const auto f = [&](double m) { return power_on(nodes, m, q, r) - power; };
  double from = std::max(r, known), to = from;
  if (f(from) >= 0) {  // not expected (a random se lowers the power), but then the root lies below
    if (f(r) >= 0) return se * r;
    from = r;
  } else {
    to = from + 1 + q;
    while (f(to) < 0) {
      from = to;
      to = r + 2 * (to - r);
      if (to > r + 1e6) return kNaN;
    }
  }
  std::uintmax_t iterations = 100;
  const auto [x, y] =
      boost::math::tools::toms748_solve(f, from, to, boost::math::tools::eps_tolerance<double>(22), iterations);
  return se * (x + y) / 2;
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
