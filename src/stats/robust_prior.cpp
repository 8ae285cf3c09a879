#include "benchreport/stats/robust_prior.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/quantile.hpp"

namespace benchreport {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMaxFiniteD0 = 1e6;  // past it the winsorised variance no longer tells d0 from inf

// Log density of z = log F(d1, d0) (d0 = inf: of log(chi2_d1 / d1)). log B(h, d0/2) as
// lgamma(h) + log(Γ(d0/2)/Γ(d0/2 + h)), which stays exact for large d0.
double log_f_density(double z, double d1, double d0) {
  const double h = d1 / 2;
  if (std::isinf(d0)) return h * std::log(h) + h * z - h * std::exp(z) - std::lgamma(h);
  const double log_beta = std::lgamma(h) + std::log(boost::math::tgamma_delta_ratio(d0 / 2, h));
  return h * std::log(d1 / d0) + h * z - (d1 + d0) / 2 * std::log1p(d1 / d0 * std::exp(z)) - log_beta;
}

// psi(x/2) - log(x/2): the mean of log(chi2_x / x).
double log_chi2_mean(double x) { return boost::math::digamma(x / 2) - std::log(x / 2); }

struct Fit {
  double d0 = 0;  // 0: below min_d0
  double s0_squared = kNaN;
};

// d0 and s0^2 whose winsorised log F(d, d0) has the clamped values' mean and variance.
Fit winsorised_fit(const std::vector<double>& zw, double d, double min_d0) {
  const double g = static_cast<double>(zw.size());
  const double mean = std::accumulate(zw.begin(), zw.end(), 0.0) / g;
  double ss = 0;
  for (double v : zw) ss += (v - mean) * (v - mean);
  const double var = ss / (g - 1);
  // The winsorised variance falls as d0 grows.
  const auto gap = [&](double d0) { return winsorised_log_f_moments(d, d0).variance - var; };
  double d0 = kInf;
  if (gap(kInf) < 0) {
    if (gap(min_d0) < 0) return {};
    double lo = min_d0, hi = 2 * min_d0;
    while (gap(hi) > 0) {
      lo = hi;
      hi *= 2;
      if (hi > kMaxFiniteD0) break;
    }
    if (!(gap(hi) > 0)) {
      std::uintmax_t iterations = 200;
      const auto [a, b] =
          boost::math::tools::toms748_solve(gap, lo, hi, boost::math::tools::eps_tolerance<double>(50), iterations);
      d0 = (a + b) / 2;
    }
  }
  return {d0, std::exp(mean - winsorised_log_f_moments(d, d0).mean)};
}

// P(F(d, d0) > f) (d0 = inf: P(chi2_d / d > f)).
double f_tail(double f, double d, double d0) {
  if (std::isinf(d0))
    return boost::math::cdf(boost::math::complement(boost::math::chi_squared_distribution<double>(d), f * d));
  return boost::math::cdf(boost::math::complement(boost::math::fisher_f_distribution<double>(d, d0), f));
}

}  // namespace

WinsorisedMoments winsorised_log_f_moments(double d1, double d0, double low, double high) {
  if (!(d1 > 0) || !(d0 > 0) || !(low > 0) || !(high > 0) || !(low + high < 1)) {
    throw InputError("winsorised log-F moments: need d1, d0 > 0 and tail proportions in (0, 1)");
  }
  double zl = 0, zh = 0;
  if (std::isinf(d0)) {
    const boost::math::chi_squared_distribution<double> chi2(d1);
    zl = std::log(boost::math::quantile(chi2, low) / d1);
    zh = std::log(boost::math::quantile(boost::math::complement(chi2, high)) / d1);
  } else {
    const boost::math::fisher_f_distribution<double> f(d1, d0);
    zl = std::log(boost::math::quantile(f, low));
    zh = std::log(boost::math::quantile(boost::math::complement(f, high)));
  }
  constexpr int kPieces = 8;
  using GL = boost::math::quadrature::gauss<double, 20>;
  double m1 = 0, m2 = 0;
  const double half = (zh - zl) / (2 * kPieces);
  for (int i = 0; i < kPieces; ++i) {
    const double mid = zl + (2 * i + 1) * half;
    for (std::size_t k = 0; k < GL::abscissa().size(); ++k) {
      for (double sign : {-1.0, 1.0}) {  // boost stores the non-negative abscissas of the symmetric rule
        const double z = mid + sign * half * GL::abscissa()[k];
        const double w = half * GL::weights()[k] * std::exp(log_f_density(z, d1, d0));
        m1 += w * z;
        m2 += w * z * z;
      }
    }
  }
  const double mean = m1 + low * zl + high * zh;
  return {mean, m2 + low * zl * zl + high * zh * zh - mean * mean};
}

std::vector<double> outlier_shares(std::span<const double> variances, std::span<const double> dfs, double min_d0) {
  if (variances.size() != dfs.size()) throw InputError("outlier shares: variances and dfs differ in length");
  std::vector<double> share(variances.size(), 1.0);
  std::vector<std::size_t> used;
  for (std::size_t g = 0; g < variances.size(); ++g) {
    const double s2 = variances[g], d = dfs[g];
    if (s2 > 0 && std::isfinite(s2) && d >= 1 && std::isfinite(d)) used.push_back(g);
  }
  if (used.size() < 3) return share;
  std::vector<double> ds;
  for (std::size_t g : used) ds.push_back(dfs[g]);
  const double d = median(ds);
  std::vector<double> z;
  for (std::size_t g : used) z.push_back(std::log(variances[g]) - log_chi2_mean(dfs[g]) + log_chi2_mean(d));
  const double tails[] = {kWinsorLow, 1 - kWinsorHigh};
  const std::vector<double> bounds = quantiles(z, tails);  // linear interpolation, numpy's default
  const double lo = bounds[0], hi = bounds[1];
  for (double& v : z) v = std::clamp(v, lo, hi);
  // Outliers are judged against the winsorised fit: the few cases they are would widen a fit on all.
  const Fit bulk = winsorised_fit(z, d, min_d0);
  if (!(bulk.d0 > 0)) return share;  // the bulk itself is too spread to single any case out
  const double g = static_cast<double>(used.size());
  std::vector<double> f(used.size()), keep_share(used.size());
  for (std::size_t j = 0; j < used.size(); ++j) f[j] = variances[used[j]] / bulk.s0_squared;
  std::vector<std::size_t> order(used.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return f[a] < f[b]; });
  for (std::size_t r = 0; r < order.size(); ++r) {
    const std::size_t j = order[r];
    const double empirical = (g - static_cast<double>(r + 1) + 0.5) / g;
    keep_share[j] = std::min(1.0, f_tail(f[j], dfs[used[j]], bulk.d0) / empirical);
  }
  // A larger variance never gets more prior weight than a smaller one.
  double running = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    keep_share[*it] = running = std::max(running, keep_share[*it]);
  for (std::size_t j = 0; j < used.size(); ++j) share[used[j]] = keep_share[j];
  return share;
}

void limit_case_d0(VariancePrior& prior, std::span<const double> shares) {
  if (!(prior.d0 > 0)) return;
  if (prior.case_d0.empty()) prior.case_d0.assign(shares.size(), prior.d0);
  if (prior.case_d0.size() != shares.size()) throw InputError("outlier shares: one share per case of the prior");
  const double weight = std::min(prior.d0, prior.pooled_df);  // d0 = inf weighs like the cap of any moderated df
  for (std::size_t g = 0; g < shares.size(); ++g) {
    if (shares[g] < 1) prior.case_d0[g] = std::min(prior.case_d0[g], shares[g] * weight);
  }
}

VariancePrior estimate_robust_variance_prior(std::span<const double> variances, std::span<const double> dfs,
                                             double excess_z, std::size_t min_cases, double min_d0) {
  VariancePrior prior = estimate_variance_prior(variances, dfs, excess_z, min_cases, min_d0);
  if (prior.d0 > 0) limit_case_d0(prior, outlier_shares(variances, dfs, min_d0));
  return prior;
}

}  // namespace benchreport
