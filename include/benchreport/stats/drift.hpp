#pragma once
// Drift within one ordered sample set: did the values move during the run?
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "benchreport/core/availability.hpp"

namespace benchreport {

struct DriftOptions {
  std::size_t k = 5;                   // samples at each end for the median ratio
  std::size_t theil_sen_max_n = 3000;  // exact Theil–Sen keeps n(n-1)/2 slopes; above this it is unavailable
};

struct Drift {
  // median(last k) / median(first k) - 1; needs n >= 2k and median(first k) > 0.
  Availability change_availability;
  double change = std::numeric_limits<double>::quiet_NaN();

  // Theil–Sen: median over i < j of (x_j - x_i) / (j - i), per sample index, and
  // that slope divided by the median of the set. Needs 2 <= n <= theil_sen_max_n.
  Availability theil_sen_availability;
  double theil_sen_slope = std::numeric_limits<double>::quiet_NaN();
  double theil_sen_relative = std::numeric_limits<double>::quiet_NaN();

  // Mann–Kendall: S = sum_{i<j} sign(x_j - x_i); variance with the tie correction
  // (n(n-1)(2n+5) - sum t(t-1)(2t+5)) / 18; z = S / sqrt(var), two-sided normal p
  // (no continuity correction, as scipy.stats.kendalltau(method="asymptotic")).
  // tau is Kendall's tau-b against the sample index. Needs n >= 3 and not all equal.
  Availability mann_kendall_availability;
  double mann_kendall_s = std::numeric_limits<double>::quiet_NaN();
  double mann_kendall_z = std::numeric_limits<double>::quiet_NaN();
  double mann_kendall_p = std::numeric_limits<double>::quiet_NaN();
  double kendall_tau = std::numeric_limits<double>::quiet_NaN();
};

// The two windows drift compares, as half-open index ranges: the first k samples [0, k) and the
// last k [n - k, n). None when n < 2k (the windows would overlap: drift is n/a). k must be >= 1.
struct DriftWindows {
  std::size_t first_begin = 0, first_end = 0, last_begin = 0, last_end = 0;
};
std::optional<DriftWindows> drift_windows(std::size_t n, std::size_t k);

// Pieces, on finite ordered samples; `scratch` is reused working memory.
void drift_change(std::span<const double> ordered, std::size_t k, std::vector<double>& scratch, Drift& out);
void theil_sen(std::span<const double> ordered, double median, std::size_t max_n, std::vector<double>& scratch,
               Drift& out);
void mann_kendall(std::span<const double> ordered, std::vector<double>& scratch, Drift& out);

// All three. Empty input or NaN/±inf throw InputError; k must be >= 1.
Drift drift(std::span<const double> ordered, const DriftOptions& options = {});

}  // namespace benchreport
