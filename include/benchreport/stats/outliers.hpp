#pragma once
// Outlier counts — reported, never removed.
#include <cstddef>
#include <span>

namespace benchreport {

// Modified z-score threshold: |x - median| / MAD above this is an outlier
// (10 normal-consistent sigmas: 10 × 1.4826).
inline constexpr double kModifiedZThreshold = 14.826;

struct OutlierCounts {
  std::size_t tukey_mild = 0;    // beyond 1.5 IQR from the quartiles but within 3 IQR
  std::size_t tukey_severe = 0;  // beyond 3 IQR from the quartiles
  std::size_t modified_z = 0;    // |x - median| / MAD > kModifiedZThreshold (MAD = 0: every x != median)
};

// Tukey counts for quartiles q1 <= q3 (strict inequalities at the fences).
void count_tukey_outliers(std::span<const double> x, double q1, double q3, OutlierCounts& out);

// Modified z-score count from absolute deviations |x - median| and their median (the raw MAD).
void count_modified_z_outliers(std::span<const double> abs_deviations, double mad, OutlierCounts& out);

}  // namespace benchreport
