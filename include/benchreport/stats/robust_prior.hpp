#pragma once
// The robust variance prior of the moderated t (Phipson, Lee, Majewski, Alexander & Smyth
// 2016, "Robust hyperparameter estimation protects against hypervariable genes and improves
// power to detect differential expression", Ann. Appl. Stat. 10(2)): a few very noisy cases
// neither drag d0 towards 0 nor get shrunk as if they were like the others.
// Formulas: docs/statistics-comparison.md, "Moderated t"; reference: bench/moderated_reference.py.
#include <span>

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

// The prior from winsorised moments. With d = the median of the cases' d_g and
// z_g = log s_g^2 - (psi(d_g/2) - log(d_g/2)) + (psi(d/2) - log(d/2)) (every case on d's scale),
// z_g is clamped to its sample quantiles at kWinsorLow and 1 - kWinsorHigh (linear
// interpolation); d0 solves Var_w(d, d0) = V + excess_z se(V) (V, se(V) of the clamped values as in
// estimate_variance_prior; +inf when even d0 = inf leaves Var_w above it) and
// s0^2 = exp(mean of the clamped values - E_w(d, d0)).
// Outliers: against the point estimate (excess_z = 0) of the prior, a case's tail probability
// p_g = P(F(d_g, d0) > s_g^2 / s0^2) over its empirical one (G - r_g + 1/2)/G (r_g its rank, 1 =
// smallest) gives w_g = min(1, ratio), made non-increasing in s_g^2 (from the largest down, the
// running maximum); case_d0[g] = w_g · min(d0, pooled_df) when w_g < 1, else d0. Cases left out
// (as in estimate_variance_prior) keep d0. Fallbacks as estimate_variance_prior's.
VariancePrior estimate_robust_variance_prior(std::span<const double> variances, std::span<const double> dfs,
                                             double excess_z = 0, std::size_t min_cases = 3, double min_d0 = 0.5);

}  // namespace benchreport
