#pragma once
// Optimal partitioning of a series into segments of constant mean: the
// segmentation that minimises
//
//   sum over segments [a, b) of  sum_{a <= i < b} (x_i - mean(x[a, b)))^2   +   penalty * (segments - 1)
//
// with every segment at least min_segment points long, found exactly by
// dynamic programming with PELT's pruning (Killick, Fearnhead & Eckley 2012):
// a start s with F(s) + C(s, t) > F(t) is dropped from t + min_segment on,
// which never drops the optimum because this cost satisfies
// C(a, b) + C(b, c) <= C(a, c) (docs/statistics-history.md).
#include <cstddef>
#include <span>
#include <vector>

namespace benchreport {

// The change points (first index of each segment after the first), ascending.
// Ties between equally good segmentations go to the one whose last change is
// earliest, recursively. Requires finite x, penalty >= 0, min_segment >= 1.
std::vector<std::size_t> pelt_mean_changes(std::span<const double> x, double penalty, std::size_t min_segment);

}  // namespace benchreport
