#pragma once
// Robust, distribution-free estimators built on pairwise statistics
// (Hodges & Lehmann 1963; Shamos 1976), with exact rank-based bounds.
//
//   shift(x, y)     = median of all y_j - x_i             (two-sample HL estimator)
//   ratio(x, y)     = exp(shift(log x, log y))           (positive data only)
//   center(x)       = median of Walsh averages (x_i + x_j)/2, i <= j  (HL pseudomedian)
//   spread(x)       = median of |x_i - x_j|, i < j       (Shamos; raw scale)
//   disparity(x, y) = shift(x, y) / ((spread(x) + spread(y)) / 2)
//
// "Median" of an even number of pairwise values is the mean of the two middle
// ones. Large inputs use an O(n log^2 n) selection over the implicitly sorted
// matrix of pairwise values (Johnson & Mitra 1978 style: weighted median of
// row medians as pivot); small inputs enumerate all pairs.
//
// Spread bounds use a sign test on a random disjoint pairing: for m = floor(n/2)
// disjoint pairs of i.i.d. samples, the |x_a - x_b| are i.i.d. with median equal
// to the population Shamos spread, so [d_(k), d_(m+1-k)] of the sorted pair
// differences covers it with probability 1 - 2 P(B <= k-1), B ~ Binomial(m, 1/2).
// The pairing is a Fisher–Yates shuffle from a seeded Xoshiro256 (rng.hpp), so
// the bounds are reproducible. Disparity bounds combine shift bounds at
// misrate/2 with spread bounds at misrate/4 per side (Bonferroni).
#include <cstddef>
#include <cstdint>
#include <span>

namespace benchreport {

struct Bounds {
  double lower = 0;
  double upper = 0;
  // Probability that the true value lies outside [lower, upper] under the
  // method's assumptions (exact for the exact path). When the requested
  // misrate is below what the sample sizes allow, the bounds are the extreme
  // pairwise values and achieved_misrate exceeds the request.
  double achieved_misrate = 0;
  bool exact = true;  // false: margins from the normal approximation
};

double hodges_lehmann_shift(std::span<const double> x, std::span<const double> y);
// [d_(k), d_(nm+1-k)] with k the largest rank such that 2 P(U <= k-1) <= misrate
// under the Mann–Whitney null (exact counts while n*m*min(n,m)*nm/2 is modest).
Bounds shift_bounds(std::span<const double> x, std::span<const double> y, double misrate);

double ratio(std::span<const double> x, std::span<const double> y);
Bounds ratio_bounds(std::span<const double> x, std::span<const double> y, double misrate);

double center(std::span<const double> x);
// [w_(k), w_(N+1-k)], N = n(n+1)/2 Walsh averages, margin from the signed-rank null.
Bounds center_bounds(std::span<const double> x, double misrate);

double spread(std::span<const double> x);  // requires n >= 2
// Sign-test bounds on the population spread (see above); requires n >= 2.
Bounds spread_bounds(std::span<const double> x, double misrate, std::uint64_t seed = 0);

double disparity(std::span<const double> x, std::span<const double> y);  // requires n, m >= 2
// The same for a shift already computed as hodges_lehmann_shift(x, y).
double disparity(double shift, std::span<const double> x, std::span<const double> y);
// [lower, upper] of shift / average spread over the shift bounds (misrate/2)
// and the average of the two spread bounds (misrate/4 each; seeds `seed` and
// seed + 1). Unbounded (±inf) on a side where the spread's lower bound is 0.
// achieved_misrate is the Bonferroni sum of the three parts' (at most 1).
Bounds disparity_bounds(std::span<const double> x, std::span<const double> y, double misrate, std::uint64_t seed = 0);

// k-th smallest (0-based) pairwise difference y_j - x_i of two *sorted* inputs,
// by the sub-quadratic selection (exposed for testing against brute force).
double kth_pairwise_difference(std::span<const double> x_sorted, std::span<const double> y_sorted, std::size_t k);

// Largest k >= 1 with 2 P(U <= k-1) <= misrate (0 if even k = 1 fails), and
// whether exact counts were used. Shared by shift and ratio bounds.
struct Margin {
  std::size_t k = 0;
  double achieved_misrate = 0;
  bool exact = true;
};
Margin shift_margin(std::size_t n, std::size_t m, double misrate);
Margin center_margin(std::size_t n, double misrate);
// Largest k >= 1 with 2 P(B <= k-1) <= misrate, B ~ Binomial(m, 1/2) (k = 1
// when even that fails); k <= ceil(m/2).
Margin sign_margin(std::size_t m, double misrate);

}  // namespace benchreport
