#pragma once
// Empirical-Bayes moderated t (Smyth 2004): many cases, each with a variance
// s_g^2 on d_g degrees of freedom, share a scaled inverse-chi-square prior
// (d0, s0^2) for their true variances; each case's variance is shrunk towards
// s0^2 and its t statistic gets d_g + d0 degrees of freedom. Also the power of
// the interval-plus-threshold verdict rule under a noncentral t, the change it
// detects with a given power, and the resolution of a quantised timer.
// Formulas and references: docs/statistics-comparison.md, "Moderated t".
#include <cstddef>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace benchreport {

// Why a prior was not used (d0 = 0: every case keeps its own variance).
enum class PriorFallback { none, too_few_cases, too_heterogeneous };
std::string_view to_string(PriorFallback f) noexcept;

struct VariancePrior {
  double d0 = 0;  // prior degrees of freedom: 0 = no moderation, +inf = one common variance
  double s0_squared = std::numeric_limits<double>::quiet_NaN();  // prior variance (NaN when d0 = 0)
  double pooled_df = 0;        // sum of d_g over the cases used: the cap of a case's d_g + d0
  std::size_t cases_used = 0;  // cases with d_g >= 1 and s_g^2 > 0
  PriorFallback fallback = PriorFallback::too_few_cases;
  // The robust prior's d0 for each case given (stats/robust_prior.hpp), smaller for a likely
  // outlier; empty: every case has d0.
  std::vector<double> case_d0;
  double d0_of(std::size_t i) const { return case_d0.empty() ? d0 : case_d0[i]; }
};

// Method of moments on z_g = log s_g^2 (Smyth 2004, section 6.2): with
// e_g = z_g - digamma(d_g/2) + log(d_g/2), ē = mean(e_g), the sample variance
// V = sum (e_g - ē)^2 / (G - 1), its standard error
// se(V) = sqrt((m4 - (G - 3)/(G - 1) V^2) / G) (m4 = mean (e_g - ē)^4) and
// v = V + excess_z · se(V) - mean(trigamma(d_g/2)) (excess_z = 0: Smyth's estimate;
// > 0: an upper confidence bound of the excess, so a prior fitted to few cases is
// trusted no further than they show, bench/RESULTS-inference.md):
// v > 0: d0 = 2 trigamma^-1(v), s0^2 = exp(ē + digamma(d0/2) - log(d0/2));
// v <= 0: d0 = +inf, s0^2 = exp(ē). Cases with d_g < 1, s_g^2 <= 0 or
// non-finite values are left out. Fewer than `min_cases` cases left: d0 = 0
// (too_few_cases); d0 below `min_d0`: d0 = 0 (too_heterogeneous, the per-case
// t is nearly as good and makes no shared assumption).
// `variances` and `dfs` have equal lengths (InputError otherwise).
VariancePrior estimate_variance_prior(std::span<const double> variances, std::span<const double> dfs,
                                      double excess_z = 0, std::size_t min_cases = 3, double min_d0 = 0.5);

// The excess_z a prior over these dfs uses: max(excess_z, kOneDfExcessZ) when any case has
// 1 <= d_g < 2 (paired with 2 processes), else excess_z. With one df the log variances' long left
// tail makes the normal bound V + z se(V) cover the excess less often than at 2 df: from 40 cases,
// z = 2.5 at d = 1 covers about as often as 1.645 does at d = 2 (docs/statistics-comparison.md,
// "Two paired processes").
inline constexpr double kOneDfExcessZ = 2.5;
double prior_excess_z_for(std::span<const double> dfs, double excess_z);

// The inverse of trigamma on (0, inf) by Newton's method on 1/trigamma
// (Smyth 2004, appendix): trigamma(trigamma_inverse(x)) = x to ~1e-10 relative.
double trigamma_inverse(double x);

struct ModeratedVariance {
  double variance = 0;  // (d0 s0^2 + d s^2) / (d0 + d); s0^2 when d0 = inf; s^2 when d0 = 0
  double df = 0;        // min(d + d0, pooled_df) (d when d0 = 0); may be +inf
};
ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior);
// The same with case i's own prior df (VariancePrior::d0_of).
ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior, std::size_t i);

// Power of the verdict rule "interval excludes 0 and |estimate| >= tau" for a
// true log change delta > 0: the estimate is N(delta, se^2) and the estimated
// standard error is se * sqrt(chi2_df / df) (df = +inf: known), the interval
// estimate ± q · se_hat. P(estimate >= max(tau, 0) and estimate - q se_hat > 0)
// = ∫_{max(tau,0)}^∞ φ((x - delta)/se)/se · F_chi2_df(df x^2 / (q se)^2) dx
// computed as E_S Φ̄(max(tau/se, q S) - delta/se) over S = se_hat/se (fixed 20-point Gauss–Legendre
// on 8 pieces, density in the weights); above 200 df the se is taken as known, the ν = inf
// formula Φ(delta/se - max(q, tau/se)). With tau = 0 it is the noncentral t tail
// P(T_{df, delta/se} > q) (= scipy.stats.nct.sf(q, df, delta / se)).
double rule_power(double delta, double se, double df, double q, double tau);

// Smallest log change delta >= tau with rule_power(delta, se, df, q, tau) = power
// (TOMS 748 on [tau, ...]); q = t_{df, (1 + confidence)/2}. NaN when se or df is not usable.
// `quantile`, when finite, is that q already known.
double detectable_log_change(double se, double df, double confidence, double tau, double power = 0.8,
                             double quantile = std::numeric_limits<double>::quiet_NaN());

// Smallest positive difference between distinct values (the timer's grid when the
// values are quantised); NaN with fewer than two distinct values.
double timer_resolution(std::span<const double> values);

}  // namespace benchreport
