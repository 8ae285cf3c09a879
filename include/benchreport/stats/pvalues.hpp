#pragma once
// Multiple-comparison adjustment of p-values across cases.
#include <span>
#include <vector>

namespace benchreport {

// Benjamini–Hochberg step-up adjusted p-values (false discovery rate), in the
// input order; equal to scipy.stats.false_discovery_control(p, method="bh").
// p_(i) * m / i, then a running minimum from the largest p down, clipped to 1.
std::vector<double> adjust_bh(std::span<const double> p);

// Holm step-down adjusted p-values (family-wise error), in the input order:
// p_(i) * (m - i + 1), then a running maximum from the smallest p up, clipped to 1.
std::vector<double> adjust_holm(std::span<const double> p);

}  // namespace benchreport
