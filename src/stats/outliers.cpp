#include "benchreport/stats/outliers.hpp"

namespace benchreport {

void count_tukey_outliers(std::span<const double> x, double q1, double q3, OutlierCounts& out) {
  const double iqr = q3 - q1;
  const double mild_low = q1 - 1.5 * iqr, mild_high = q3 + 1.5 * iqr;
  const double severe_low = q1 - 3.0 * iqr, severe_high = q3 + 3.0 * iqr;
  std::size_t beyond_mild = 0, beyond_severe = 0;
  for (double v : x) {
    beyond_mild += static_cast<std::size_t>(v < mild_low || v > mild_high);
    beyond_severe += static_cast<std::size_t>(v < severe_low || v > severe_high);
  }
  out.tukey_mild = beyond_mild - beyond_severe;
  out.tukey_severe = beyond_severe;
}

void count_modified_z_outliers(std::span<const double> abs_deviations, double mad, OutlierCounts& out) {
  std::size_t count = 0;
  // Division form on purpose: with MAD = 0, d / 0 = inf counts and 0 / 0 = NaN does not.
  for (double d : abs_deviations) count += static_cast<std::size_t>(d / mad > kModifiedZThreshold);
  out.modified_z = count;
}

}  // namespace benchreport
