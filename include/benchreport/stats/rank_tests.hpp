#pragma once
// Rank tests for two samples and for paired differences, with the semantics of
// scipy.stats (1.17): mannwhitneyu(method="auto", alternative="two-sided",
// use_continuity=True), brunnermunzel(distribution="t"), and
// wilcoxon(zero_method="wilcox", correction=False, method="auto").
// Inputs must be finite (callers validate; these functions throw InputError).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace benchreport {

enum class TestMethod {
  exact,        // exact null distribution (no ties)
  permutation,  // exact enumeration of the conditional (tied) null distribution
  asymptotic,   // normal approximation with tie (and continuity) correction
};
std::string_view to_string(TestMethod m) noexcept;

// Average ranks (1-based) of v, as scipy.stats.rankdata(method="average").
std::vector<double> average_ranks(std::span<const double> v);

struct MannWhitneyResult {
  double u = 0;        // U of x: #(x_i > y_j) + 0.5 #(x_i == y_j)  (scipy's statistic)
  double p_value = 1;  // two-sided
  TestMethod method = TestMethod::exact;
};
// Exact when min(n, m) <= 8 and there are no ties (scipy's "auto" rule),
// otherwise normal approximation with tie and continuity corrections. The
// exact path falls back to the approximation when its table would exceed
// kMannWhitneyExactBudget operations (reported through `method`).
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y);
inline constexpr double kMannWhitneyExactBudget = 2e8;

// Number of arrangements of n x's and m y's with U = u, for u = 0..u_max
// (U counts pairs with the x above the y). Doubles: exact for n + m <= 1000.
std::vector<double> mann_whitney_counts(std::size_t n, std::size_t m, std::size_t u_max);
// log C(n + m, n): the log of the total number of arrangements.
double log_binomial(std::size_t n, std::size_t k);
// C(n, k) as a double: exact (integer arithmetic) while it fits in 64 bits,
// exp(log_binomial) beyond. exp(lgamma) alone is off by an ulp or so even for
// small counts (C(25, 2) = 300), which turns an exactly attainable misrate
// (2 * count / C <= misrate) into an unattainable one.
double binomial_coefficient(std::size_t n, std::size_t k);

struct BrunnerMunzelResult {
  double statistic = 0;  // scipy's W (positive when y tends to be larger)
  double df = 0;         // Welch–Satterthwaite degrees of freedom
  double p_value = 1;    // two-sided, Student t with df; NaN when df is 0/0
};
BrunnerMunzelResult brunner_munzel(std::span<const double> x, std::span<const double> y);

// Both tests above from one sort of the pooled values (the comparison runs both);
// Brunner–Munzel only with >= 2 values on each side. Same results as the two calls.
struct PooledRankTests {
  MannWhitneyResult mann_whitney;
  bool brunner_munzel_available = false;
  BrunnerMunzelResult brunner_munzel;
};
PooledRankTests pooled_rank_tests(std::span<const double> x, std::span<const double> y);

struct WilcoxonResult {
  double statistic = 0;    // min(R+, R-) as scipy reports for two-sided
  double r_plus = 0;       // sum of ranks of positive differences
  double p_value = 1;      // two-sided
  std::size_t n_used = 0;  // nonzero differences
  TestMethod method = TestMethod::exact;
};
// Wilcoxon signed-rank test of the differences d against 0 (zeros dropped).
// scipy's "auto" rule on the len(d) differences (zeros included): more than
// 50 → normal approximation (tie-corrected, no continuity correction); no
// ties or zeros → exact; otherwise exact enumeration of the 2^n sign flips for
// len(d) <= 13 (scipy's permutation test), else normal approximation.
// Requires at least one nonzero difference.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> d);

// Number of sign assignments of ranks 1..n with positive-rank sum s, s = 0..n(n+1)/2.
std::vector<double> signed_rank_counts(std::size_t n);

}  // namespace benchreport
