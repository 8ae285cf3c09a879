#pragma once
// Distribution-free confidence interval for the median from two order statistics.
#include <cstddef>
#include <limits>
#include <span>

#include "benchreport/core/availability.hpp"

namespace benchreport {

// Which order statistics bound the interval, and the confidence they achieve.
// With B ~ Binomial(n, 1/2), [x(l), x(n+1-l)] (1-based) covers the median with
// probability 1 - 2 P(B <= l - 1); l is the largest rank whose coverage is at
// least the nominal confidence.
struct MedianCIPlan {
  bool ok = false;
  std::size_t lower_rank = 0;                                  // 1-based l
  std::size_t upper_rank = 0;                                  // 1-based n + 1 - l
  double achieved = std::numeric_limits<double>::quiet_NaN();  // of [x(l), x(n+1-l)], or of [min, max] if !ok
};

// Requires n >= 1 and nominal in (0, 1). !ok when even [min, max] falls short.
MedianCIPlan plan_median_ci(std::size_t n, double nominal);

struct MedianCI {
  Availability availability;
  double lower = std::numeric_limits<double>::quiet_NaN();
  double upper = std::numeric_limits<double>::quiet_NaN();
  double nominal = std::numeric_limits<double>::quiet_NaN();
  double achieved = std::numeric_limits<double>::quiet_NaN();
  std::size_t lower_rank = 0;  // 1-based order-statistic ranks
  std::size_t upper_rank = 0;
};

// Interval from a plan and a sample in which both order statistics are in place.
MedianCI median_ci_from(const MedianCIPlan& plan, std::span<const double> ordered, double nominal);

// Median CI of a read-only sample (one working copy; NaN/±inf or empty throw InputError).
MedianCI median_ci(std::span<const double> x, double nominal = 0.95);

}  // namespace benchreport
