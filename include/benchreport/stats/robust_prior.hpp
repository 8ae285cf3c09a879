#pragma once
// The robust variance prior of the moderated t (Phipson, Lee, Majewski, Alexander & Smyth
// 2016, "Robust hyperparameter estimation protects against hypervariable genes and improves
// power to detect differential expression", Ann. Appl. Stat. 10(2)): a few very noisy cases
// are not shrunk as if they were like the others.
// Formulas: docs/statistics-comparison.md, "Moderated t"; reference: bench/moderated_reference.py.
#include <span>
#include <vector>

#include "benchreport/stats/moderated_t.hpp"

namespace benchreport {

// Tail proportions winsorised below and above (the paper's default).
inline constexpr double kWinsorLow = 0.05;
inline constexpr double kWinsorHigh = 0.1;

struct WinsorisedMoments {
  double mean = 0;
  double variance = 0;
};

// Mean and variance of z = log F(d1, d0) with z clamped to its `low` and 1 - `high` quantiles
// (d0 = inf: z = log(chi2_d1 / d1)): the clamped mass at each quantile plus the 20-point
// Gauss–Legendre integral of z and z^2 times the density of z on 8 equal pieces between them.
WinsorisedMoments winsorised_log_f_moments(double d1, double d0, double low = kWinsorLow, double high = kWinsorHigh);

// Each case's share w_g of the prior df, 1 for an ordinary case and towards 0 for a likely outlier
// (cases with s_g^2 <= 0, d_g < 1 or non-finite values, and all cases when fewer than 3 are usable
// or d_w < min_d0: 1). Outliers are judged against a winsorised fit of the bulk: with d = the median
// of the cases' d_g and z_g = log s_g^2 - (psi(d_g/2) - log(d_g/2)) + (psi(d/2) - log(d/2)) (every
// case on d's scale), z_g clamped to its sample quantiles at kWinsorLow and 1 - kWinsorHigh (linear
// interpolation); d_w solves Var_w(d, d_w) = the clamped values' variance (+inf when even d_w = inf
// leaves Var_w above it) and s_w^2 = exp(their mean - E_w(d, d_w)). A case's tail probability
// p_g = P(F(d_g, d_w) > s_g^2 / s_w^2) over its empirical one (G - r_g + 1/2)/G (r_g its rank,
// 1 = smallest) gives w_g = min(1, ratio), made non-increasing in s_g^2 (from the largest down, the
// running maximum).
std::vector<double> outlier_shares(std::span<const double> variances, std::span<const double> dfs, double min_d0 = 0.5);

// case_d0[g] = min(case_d0[g], w_g · min(d0, pooled_df)) for every w_g < 1 (case_d0 starts at d0);
// no change when d0 = 0. Several screens of the same cases (the variance of the test, paired: also
// the sides' spreads) each lower a case's prior df, none raises it.
void limit_case_d0(VariancePrior& prior, std::span<const double> shares);

// Smyth's prior (estimate_variance_prior, same arguments and fallbacks) with case_d0 limited by the
// outlier shares of the same variances.
VariancePrior estimate_robust_variance_prior(std::span<const double> variances, std::span<const double> dfs,
                                             double excess_z = 0, std::size_t min_cases = 3, double min_d0 = 0.5);

}  // namespace benchreport
