#pragma once
// Welch's two-sample t-test: unequal variances, Welch–Satterthwaite degrees
// of freedom; each value of a side is treated as one independent unit.
#include <span>

namespace benchreport {

struct WelchTest {
  double difference = 0;      // mean(b) - mean(a)
  double standard_error = 0;  // sqrt(var(a)/n_a + var(b)/n_b)
  double df = 0;              // Welch–Satterthwaite; n_a + n_b - 2 when both variances are 0
  double p_value = 1;         // two-sided Student t; 1 (no difference) or 0 when se = 0
};

// b against a, each side >= 2 values (InputError otherwise);
// = scipy.stats.ttest_ind(b, a, equal_var=False).
WelchTest welch_test(std::span<const double> a, std::span<const double> b);

}  // namespace benchreport
