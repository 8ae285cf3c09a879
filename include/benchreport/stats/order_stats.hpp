#pragma once
// Selection-based order statistics shared by every statistic that needs a
// median: they reorder a caller-owned working copy instead of sorting it.
#include <span>
#include <vector>

namespace benchreport {

// k-th smallest (0-based) of v; v is partially reordered. Requires k < v.size().
double select_kth(std::span<double> v, std::size_t k);

// Places several order statistics at once: afterwards v[k] is the k-th smallest
// for every k in `ranks` (0-based, strictly increasing, each < v.size()).
// Costs about one selection per rank on ever smaller ranges, never a full sort.
void select_many(std::span<double> v, std::span<const std::size_t> ranks);

// Middle of two order statistics, as the median of an even-sized set uses it.
// lower + (upper - lower) / 2, except when the difference overflows (opposite
// signs near the limits, e.g. -1.7e308 and 1.7e308): then lower/2 + upper/2.
inline double midpoint(double lower, double upper) {
  const double d = upper - lower;
  return d - d == 0 ? lower + d / 2.0 : lower / 2.0 + upper / 2.0;
}
// (a + b) / 2, except when the sum overflows (e.g. 1e308 + 1e308): then a/2 + b/2.
inline double walsh_average(double a, double b) {
  const double s = a + b;
  return s - s == 0 ? s / 2.0 : a / 2.0 + b / 2.0;
}

// Median (mean of the two middle values for even n); v is reordered.
// Requires a non-empty span.
double median_inplace(std::span<double> v);

// Median of a read-only span (makes one working copy).
double median(std::span<const double> v);

// Unscaled MAD around `center`: median(|x - center|); overwrites v with the
// absolute deviations. Requires a non-empty span.
double mad_inplace(std::span<double> v, double center);

// Consistency constant that makes MAD estimate sigma for normal data: 1 / Phi^-1(3/4).
inline constexpr double kMadNormalScale = 1.482602218505602;

}  // namespace benchreport
